// `uptime-agent dashboard-url`: the running dashboard's current URL, read from the data folder
// and confirmed by asking the dashboard itself (a URL left by a stopped agent is not printed).
import { resolveDataDir } from '../agent/base/data-dir.ts';
import { ipcPath, tokenHeader } from '../ipc/web-protocol.ts';
import { parseFlags } from './args.ts';
import { readDashboardLink, type DashboardLink } from './dashboard/dashboard-link.ts';
import { exitCodes } from './exit-codes.ts';
import type { CliIo } from './io.ts';

/** Answers only when the dashboard at that address is ours and takes that token. */
async function answers(link: DashboardLink): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${link.port}${ipcPath}app:info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [tokenHeader]: link.token },
      body: '{}',
      signal: AbortSignal.timeout(3_000),
    });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function dashboardUrlCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseFlags(argv, {});
  if (!parsed.ok) {
    io.stderr(`dashboard-url: ${parsed.message}. Run "uptime-agent --help" for usage.`);
    return exitCodes.usage;
  }
  const dataDir = resolveDataDir(
    typeof parsed.value['data-dir'] === 'string' ? parsed.value['data-dir'] : undefined,
    io.env,
  );
  const link = readDashboardLink(dataDir);
  if (link === undefined || !(await answers(link))) {
    io.stderr(`dashboard-url: no dashboard is running for ${dataDir}; start one with: uptime-agent run --dashboard`);
    return exitCodes.failure;
  }
  io.stdout(link.url);
  return exitCodes.ok;
}
