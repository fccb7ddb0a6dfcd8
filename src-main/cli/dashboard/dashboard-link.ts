// The dashboard's address, kept in the data folder (`dashboard-url`, readable by this user only:
// it holds the access token). `uptime-agent dashboard-url` prints it, and a restarted
// `run --dashboard` takes the same port (when free) and the same token from it, so a tab left
// open reconnects by itself instead of waiting on "Reconnecting…" forever.
import { join } from 'node:path';
import { tokenQueryParam } from '../../ipc/web-protocol.ts';
const { chmodSync, readFileSync, renameSync, writeFileSync } = process.getBuiltinModule('node:fs');

export const dashboardUrlFile = (dataDir: string): string => join(dataDir, 'dashboard-url');

export interface DashboardLink {
  url: string;
  port: number;
  token: string;
}

/** Only what we write ourselves: http://127.0.0.1:PORT/?token=T with a token of ours. */
export function parseDashboardUrl(text: string): DashboardLink | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  const port = Number(url.port);
  const token = url.searchParams.get(tokenQueryParam);
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1' || !Number.isInteger(port) || port <= 0)
    return undefined;
  if (token === null || !/^[A-Za-z0-9_-]{32,}$/.test(token)) return undefined;
  return { url: url.href, port, token };
}

export function readDashboardLink(dataDir: string): DashboardLink | undefined {
  try {
    return parseDashboardUrl(readFileSync(dashboardUrlFile(dataDir), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Written whole (a temporary file renamed over it), mode 0600 from the start. */
export function writeDashboardLink(dataDir: string, url: string): void {
  const file = dashboardUrlFile(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${url}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}
