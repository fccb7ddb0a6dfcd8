// `uptime-agent run --dashboard`: serves the window in a browser tab on loopback, for machines
// without the desktop app (servers, CI, a remote desktop without a tray).
import type { Agent } from '../../agent/agent.ts';
import type { Logger } from '../../agent/base/log.ts';
import type { CommandLineSettings } from '../../ipc/contract.ts';
import type { SettingsStore } from '../../ipc/handlers.ts';
import { readDashboardLink, writeDashboardLink } from './dashboard-link.ts';
import { rendererDir } from './renderer-dir.ts';
import { startDashboard, type Dashboard } from './server.ts';
import { webHostActions } from './web-host.ts';

export { fileSettingsStore, readSettingsFile } from './settings-file.ts';
export type { Dashboard } from './server.ts';

export interface ServeOptions {
  agent: Agent;
  settings: SettingsStore;
  dataDir: string;
  log: Logger;
  /** An explicit port; undefined takes the last run's port when it is free, else any. */
  port: number | undefined;
  /** What the command line set: the window shows it as the source of those values. */
  commandLine?: CommandLineSettings;
}

/**
 * Serves the dashboard and writes its URL into the data folder. Without an explicit port it
 * takes the last run's port and token again, so a tab left open on the old address reconnects by
 * itself; when that port is taken, any free one (and the file says which).
 */
export async function serveDashboard(options: ServeOptions): Promise<Dashboard> {
  const root = rendererDir();
  if (root === undefined)
    options.log.warn('the dashboard page is not built (dist/renderer is missing): run "npm run build:renderer"');
  const last = readDashboardLink(options.dataDir);
  const start = (port: number): Promise<Dashboard> =>
    startDashboard({
      agent: options.agent,
      settings: options.settings,
      host: webHostActions(options.dataDir, options.log, options.commandLine),
      log: options.log,
      port,
      ...(last === undefined ? {} : { token: last.token }),
      rendererRoot: root,
    });
  let dashboard: Dashboard;
  if (options.port !== undefined) dashboard = await start(options.port);
  else if (last === undefined) dashboard = await start(0);
  else {
    dashboard = await start(last.port).catch((error: unknown) => {
      options.log.info({ port: last.port, err: error }, 'the last dashboard port is taken; using another');
      return start(0);
    });
  }
  writeDashboardLink(options.dataDir, dashboard.url);
  return dashboard;
}
