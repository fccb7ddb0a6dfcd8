// Launch at login: an XDG autostart entry on Linux (in a temp HOME), the login item API elsewhere.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { autostartFile, createLoginItem, quoteExecArg } from '../../src-main/electron/login-item.ts';
import { FakeApp } from './fake-electron.ts';
import { tempDir } from './support.ts';

let home: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  home = await tempDir('home-');
});
afterEach(() => home.remove());

const linux = (env: NodeJS.ProcessEnv = {}, app = new FakeApp()) =>
  createLoginItem({
    platform: 'linux',
    getLoginItemSettings: () => app.getLoginItemSettings(),
    setLoginItemSettings: (s) => app.setLoginItemSettings(s),
    env,
    home: home.path,
    execPath: '/opt/Uptime Agent/uptime-agent',
    log: silentLogger,
  });

describe('Linux autostart entry', () => {
  it('is written to ~/.config/autostart and removed again', async () => {
    const item = linux();
    const file = join(home.path, '.config', 'autostart', 'uptime-agent.desktop');
    expect(await item.isEnabled()).toBe(false);
    await item.setEnabled(true);
    expect(await item.isEnabled()).toBe(true);
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')).toEqual(
      expect.arrayContaining([
        '[Desktop Entry]',
        'Type=Application',
        'Name=Uptime Agent',
        'Exec="/opt/Uptime Agent/uptime-agent" --hidden',
        'X-GNOME-Autostart-enabled=true',
      ]),
    );
    await item.setEnabled(false);
    expect(await item.isEnabled()).toBe(false);
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
    await item.setEnabled(false); // removing twice is fine
  });

  it('starts the AppImage file itself, not its temporary mount', async () => {
    await linux({ APPIMAGE: '/home/me/Apps/Uptime-Agent.AppImage' }).setEnabled(true);
    const text = await readFile(autostartFile({}, home.path), 'utf8');
    expect(text).toContain('Exec="/home/me/Apps/Uptime-Agent.AppImage" --hidden');
  });

  it('follows XDG_CONFIG_HOME', async () => {
    const config = join(home.path, 'xdg');
    await linux({ XDG_CONFIG_HOME: config }).setEnabled(true);
    expect(await readFile(join(config, 'autostart', 'uptime-agent.desktop'), 'utf8')).toContain('[Desktop Entry]');
  });

  it('reads an entry the user disabled in the desktop’s startup settings as off', async () => {
    const file = autostartFile({}, home.path);
    await mkdir(join(home.path, '.config', 'autostart'), { recursive: true });
    await writeFile(file, '[Desktop Entry]\nType=Application\nExec=uptime-agent\nX-GNOME-Autostart-enabled=false\n');
    expect(await linux().isEnabled()).toBe(false);
  });

  it.each([
    { arg: '/usr/bin/uptime-agent', quoted: '"/usr/bin/uptime-agent"' },
    { arg: '/opt/Uptime Agent/uptime-agent', quoted: '"/opt/Uptime Agent/uptime-agent"' },
    { arg: '/a/$HOME/`x`/"q"', quoted: '"/a/\\\\$HOME/\\\\`x\\\\`/\\\\"q\\\\""' },
    { arg: '/a\\b', quoted: '"/a\\\\\\\\b"' },
    { arg: '/100%/x', quoted: '"/100%%/x"' },
  ])('quotes Exec argument $arg', ({ arg, quoted }) => expect(quoteExecArg(arg)).toBe(quoted));
});

describe('macOS and Windows login items', () => {
  it.each([
    { platform: 'darwin', args: undefined },
    { platform: 'win32', args: ['--hidden'] },
  ] as const)('$platform uses the login item API', async ({ platform, args }) => {
    const app = new FakeApp();
    const item = createLoginItem({
      platform,
      getLoginItemSettings: () => app.getLoginItemSettings(),
      setLoginItemSettings: (s) => app.setLoginItemSettings(s),
      env: {},
      home: home.path,
      execPath: 'C:\\Program Files\\Uptime Agent\\Uptime Agent.exe',
      log: silentLogger,
    });
    await item.setEnabled(true);
    expect(app.loginItem).toEqual({ openAtLogin: true, args });
    expect(await item.isEnabled()).toBe(true);
    await item.setEnabled(false);
    expect(await item.isEnabled()).toBe(false);
    expect(await readFile(autostartFile({}, home.path)).catch(() => 'none')).toBe('none');
  });
});
