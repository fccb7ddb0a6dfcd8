// Where the agent keeps its store and key when no --data-dir or UPTIME_AGENT_DATA_DIR is given:
// the same folder Electron uses as userData for the desktop app ("Uptime Agent"), so the
// headless command and the tray app on one machine share one agent identity.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const appFolderName = 'Uptime Agent';

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), appFolderName);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', appFolderName);
  const config = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(config, appFolderName);
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined && flag !== '') return flag;
  const fromEnv = env.UPTIME_AGENT_DATA_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return defaultDataDir();
}

export const storeFile = (dataDir: string): string => join(dataDir, 'agent.db');
