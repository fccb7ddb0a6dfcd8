// Where the agent keeps its store and key when no --data-dir or UPTIME_AGENT_DATA_DIR is given:
// the same folder Electron uses as userData for the desktop app ("Uptime Agent"), so the
// headless command and the tray app on one machine share one agent identity.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const appFolderName = 'Uptime Agent';

/** The per-user configuration folder of the OS (Electron's appData): APPDATA, Application Support, XDG. */
export function configFolder(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') return env.APPDATA ?? join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(home, '.config');
}

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  return join(configFolder(platform, env, home), appFolderName);
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined && flag !== '') return flag;
  const fromEnv = env.UPTIME_AGENT_DATA_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return defaultDataDir();
}

export const storeFile = (dataDir: string): string => join(dataDir, 'agent.db');
