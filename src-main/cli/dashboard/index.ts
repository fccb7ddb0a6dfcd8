// `uptime-agent run --dashboard`: serves the window in a browser tab on loopback, for machines
// without the desktop app (servers, CI, a remote desktop without a tray).
import type { Agent } from '../../agent/agent.ts';
import type { Logger } from '../../agent/log.ts';
import type { SettingsStore } from '../../ipc/handlers.ts';
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
  port: number;
}

export async function serveDashboard(options: ServeOptions): Promise<Dashboard> {
  const root = rendererDir();
  if (root === undefined) options.log.warn('the dashboard page is not built (dist/renderer is missing): run "npm run build:renderer"');
  return startDashboard({
    agent: options.agent,
    settings: options.settings,
    host: webHostActions(options.dataDir, options.log),
    log: options.log,
    port: options.port,
    rendererRoot: root,
  });
}
