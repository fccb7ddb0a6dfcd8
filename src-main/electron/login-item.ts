// Launch at login. macOS and Windows have an API for it (app.setLoginItemSettings); Linux
// desktops read XDG autostart entries, so there the entry file is written or removed. The OS
// holds the truth (the user may change it in the system's startup settings); the app reads it.
import { dirname, join } from 'node:path';
import type { Logger } from '../agent/base/log.ts';
import { configFolder } from '../agent/base/data-dir.ts';
const { mkdir, readFile, rm, writeFile } = process.getBuiltinModule('node:fs/promises');

/** Passed when started at login, so the app starts in the tray without opening its window. */
export const hiddenFlag = '--hidden';

export interface LoginItemDeps {
  platform: NodeJS.Platform;
  /** Electron's app.getLoginItemSettings / setLoginItemSettings (macOS, Windows). */
  getLoginItemSettings(options?: { args?: string[] }): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
  env: NodeJS.ProcessEnv;
  home: string;
  /** The running executable (process.execPath). */
  execPath: string;
  log: Logger;
}

export interface LoginItem {
  isEnabled(): Promise<boolean>;
  setEnabled(enabled: boolean): Promise<void>;
}

/** XDG autostart entries live in the (Linux) config folder. */
export function autostartFile(env: NodeJS.ProcessEnv, home: string): string {
  return join(configFolder('linux', env, home), 'autostart', 'uptime-agent.desktop');
}

/**
 * One Exec argument, quoted as the Desktop Entry spec asks: inside double quotes, `"`, `` ` ``,
 * `$` and `\` take a backslash; then the string-value escaping doubles every backslash again,
 * and `%` (field codes) is doubled.
 */
export function quoteExecArg(arg: string): string {
  const quoted = arg
    .replace(/[\\"`$]/g, (c) => `\\${c}`)
    .replace(/\\/g, '\\\\')
    .replace(/%/g, '%%');
  return `"${quoted}"`;
}

export function desktopEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=Uptime Agent',
    'Comment=Runs your private uptime checks from this computer',
    `Exec=${quoteExecArg(executable)} ${hiddenFlag}`,
    'Icon=uptime-agent',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function createLoginItem(deps: LoginItemDeps): LoginItem {
  if (deps.platform !== 'linux') {
    // Windows matches the registry entry by its arguments, so the same ones are asked about.
    const args = deps.platform === 'win32' ? [hiddenFlag] : undefined;
    return {
      isEnabled: () =>
        Promise.resolve(deps.getLoginItemSettings(args === undefined ? undefined : { args }).openAtLogin),
      setEnabled(enabled) {
        deps.setLoginItemSettings({ openAtLogin: enabled, ...(args === undefined ? {} : { args }) });
        return Promise.resolve();
      },
    };
  }
  const file = autostartFile(deps.env, deps.home);
  // An AppImage runs from a temporary mount: only $APPIMAGE (the file itself) stays valid.
  const executable = deps.env.APPIMAGE !== undefined && deps.env.APPIMAGE !== '' ? deps.env.APPIMAGE : deps.execPath;
  return {
    async isEnabled() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        return false;
      }
      return !/^\s*(X-GNOME-Autostart-enabled\s*=\s*false|Hidden\s*=\s*true)\s*$/im.test(text);
    },
    async setEnabled(enabled) {
      if (enabled) {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, desktopEntry(executable), { mode: 0o644 });
        deps.log.info({ file }, 'launch at login: autostart entry written');
      } else {
        await rm(file, { force: true });
        deps.log.info({ file }, 'launch at login: autostart entry removed');
      }
    },
  };
}
