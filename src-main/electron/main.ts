// Entry of the desktop app (package.json "main" -> dist/main/electron/main.js), and the only
// module that imports electron (and electron-store) at runtime: it creates the few Electron
// objects and hands them to the setupX modules, which take them as parameters. The agent does
// the work; this file only wires it, in order: settings, key vault, agent, window, IPC, tray,
// notifications. Tests never import it (they drive the modules with a fake Electron).
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeTheme,
  Notification,
  powerMonitor,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  Tray,
} from 'electron';
import Store from 'electron-store';
import { createAgent } from '../agent/agent.ts';
import { takeInstanceLock } from '../agent/identity/instance-lock.ts';
import type { Logger } from '../agent/base/log.ts';
import type { Settings, SettingsPatch } from '../ipc/contract.ts';
import { createEventHub } from '../ipc/events.ts';
import { createHandlers } from '../ipc/handlers.ts';
import { appSchemePrivileges } from './app-protocol.ts';
import { desktopHostActions } from './host-actions.ts';
import { setupIpc } from './ipc.ts';
import { createDesktopKeyVault } from './key-vault.ts';
import { createQuitter, setupSingleInstance } from './lifecycle.ts';
import { createShellLogger } from './logging.ts';
import { createLoginItem, hiddenFlag } from './login-item.ts';
import { setupNotifications } from './notifications.ts';
import { setupPowerEvents } from './power.ts';
import { setupSession } from './session.ts';
import {
  createShellStore,
  networkFrom,
  openWithRecovery,
  setAsideFile,
  storeMigrations,
  storeSchema,
  tunablesFrom,
  type StoreBacking,
} from './settings.ts';
import { shellDefaults } from './shell-defaults.ts';
import { startFailureText } from './start-failure.ts';
import { setupTray, type TrayController } from './tray.ts';
import { panelShade, trayIconFile } from './tray-state.ts';
import { setupWindow, type WindowController } from './window.ts';
const { homedir } = process.getBuiltinModule('node:os');

// Must happen before `ready`: app:// gets an origin and counts as secure.
protocol.registerSchemesAsPrivileged([appSchemePrivileges]);

let windowCtl: WindowController | undefined;
let tray: TrayController | undefined;
/** The log, once it exists: where a failed start writes its details. */
let startLog: Logger | undefined;

/** build/ in development; the packaged resources folder (extraResources) once installed. */
const resourcesDir = (): string => (app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'build'));

function openStore(log: Logger): { backing: StoreBacking; setAside?: string } {
  let setAside: string | undefined;
  const backing = openWithRecovery(
    () =>
      new Store<Record<string, unknown>>({
        name: 'config',
        schema: storeSchema,
        migrations: storeMigrations,
      }),
    (error) => {
      const aside = setAsideFile(join(app.getPath('userData'), 'config.json'));
      setAside = 'it was damaged and has been set aside';
      log.error(
        { err: error, aside },
        'the settings file could not be read; it was set aside and defaults are used (enroll again with reclaim if the key was in it)',
      );
    },
  );
  return setAside === undefined ? { backing } : { backing, setAside };
}

/** The answer to something the user just did from the tray: shown whatever the notifications setting. */
function notify(title: string, body: string): void {
  if (Notification.isSupported()) new Notification({ title, body }).show();
}

async function start(): Promise<void> {
  await app.whenReady();
  if (process.platform === 'win32') app.setAppUserModelId('app.uptime-agent.desktop');
  const dataDir = app.getPath('userData');
  const logsDir = app.getPath('logs');
  const logging = createShellLogger({ logsDir, development: !app.isPackaged });
  const log = logging.log;
  startLog = log;
  log.info({ version: app.getVersion(), dataDir }, 'Uptime Agent starting');

  // The headless `uptime-agent run` on the same data folder would run every check twice.
  const lock = takeInstanceLock(dataDir);
  if (!lock.ok) {
    dialog.showErrorBox(
      'Uptime Agent is already running',
      `Another uptime-agent (process ${lock.pid}) is using ${dataDir}. Stop it (for example the headless "uptime-agent run"), then start Uptime Agent again.`,
    );
    app.exit(1);
    return;
  }

  const opened = openStore(log);
  const store = createShellStore(opened.backing, opened.setAside);
  const settings = store.get();
  const { vault, storage } = await createDesktopKeyVault({
    safeStorage,
    slot: store.apiKeySlot,
    platform: process.platform,
    dataDir,
    log,
  });
  const agent = createAgent({
    dataDir,
    vault,
    log,
    tunables: tunablesFrom(settings),
    network: networkFrom(settings, store.problem()),
    ...(settings.privateChecksFile === undefined || settings.privateChecksFile === ''
      ? {}
      : { privateChecksFile: settings.privateChecksFile }),
  });
  await agent.start();
  setupPowerEvents({ powerMonitor, onResume: () => agent.clockJumped(), log });
  const hub = createEventHub(agent);

  const quitter = createQuitter({
    async stop() {
      hub.close();
      tray?.destroy();
      await agent.stop();
    },
    exit(code) {
      lock.release();
      logging.close();
      app.exit(code);
    },
    timeoutMs: shellDefaults.quitTimeoutMs,
    log,
  });
  app.on('before-quit', (event) => {
    // The agent stops first (bounded), then quitter exits the process for good.
    event.preventDefault();
    void quitter.quit();
  });
  // A tray app outlives its window.
  app.on('window-all-closed', () => undefined);
  process.on('SIGTERM', () => app.quit());

  setupSession({ session: session.defaultSession, rendererRoot: join(app.getAppPath(), 'dist', 'renderer'), log });
  const windows = setupWindow({
    createWindow: (options) => new BrowserWindow(options),
    preload: join(import.meta.dirname, '..', 'preload.cjs'),
    icon: join(resourcesDir(), 'icon.png'),
    bounds: store.bounds,
    workAreas: () => screen.getAllDisplays().map((display) => display.workArea),
    isQuitting: () => quitter.isQuitting(),
    openExternal: (url) => shell.openExternal(url),
    onLoaded: () => hub.refresh(),
    log,
  });
  windowCtl = windows;
  app.on('activate', () => windows.show());

  const loginItem = createLoginItem({
    platform: process.platform,
    getLoginItemSettings: (options) => app.getLoginItemSettings(options),
    setLoginItemSettings: (loginSettings) => app.setLoginItemSettings(loginSettings),
    env: process.env,
    home: homedir(),
    execPath: process.execPath,
    log,
  });
  // The OS holds the truth: the user may have changed it in the system's startup settings.
  const loginEnabled = await loginItem.isEnabled();
  if (loginEnabled !== settings.launchAtLogin) store.update({ launchAtLogin: loginEnabled });

  async function onSettingsChanged(next: Settings, patch: SettingsPatch): Promise<void> {
    if (patch.launchAtLogin !== undefined) await loginItem.setEnabled(next.launchAtLogin);
    if (patch.intervals !== undefined || patch.connectivityTargets !== undefined) {
      log.info('interval and connectivity target changes are saved; they apply from the next start of Uptime Agent');
    }
    tray?.refresh();
  }

  const host = desktopHostActions({
    showOpenDialog: (options) => {
      const parent = BrowserWindow.getFocusedWindow();
      return parent === null ? dialog.showOpenDialog(options) : dialog.showOpenDialog(parent, options);
    },
    openPath: (path) => shell.openPath(path),
    openExternal: (url) => shell.openExternal(url),
    version: app.getVersion(),
    platform: process.platform,
    logsFolder: logsDir,
    dataFolder: dataDir,
    keyStorage: storage,
  });
  const handle = createHandlers({ agent, settings: store, host, log, onSettingsChanged });
  setupIpc({ ipcMain, handle, hub, window: windows, log });

  const trayDir = join(resourcesDir(), 'tray');
  tray = setupTray({
    createTray(icon) {
      const created = new Tray(icon);
      return {
        setImage: (image) => created.setImage(image),
        setToolTip: (text) => created.setToolTip(text),
        setContextMenu: (template) => created.setContextMenu(Menu.buildFromTemplate(template)),
        on: (event, listener) => created.on(event, listener),
        destroy: () => created.destroy(),
      };
    },
    iconPath: (state) =>
      join(
        trayDir,
        trayIconFile(state, process.platform, panelShade(process.platform, nativeTheme.shouldUseDarkColors)),
      ),
    invoke: handle,
    snapshot: () => agent.snapshot(),
    hub,
    window: windows,
    launchAtLogin: {
      get: () => store.get().launchAtLogin,
      async set(enabled) {
        await loginItem.setEnabled(enabled);
        store.update({ launchAtLogin: enabled });
      },
    },
    quit: () => app.quit(),
    report: notify,
    log,
  });
  nativeTheme.on('updated', () => tray?.refresh());

  setupNotifications({
    hub,
    createNotification: (options) => (Notification.isSupported() ? new Notification(options) : undefined),
    enabled: () => store.get().notifications,
    window: windows,
    log,
  });

  // Started at login: stay in the tray. Started by the user: show the window.
  const atLogin =
    process.argv.includes(hiddenFlag) || (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  if (!atLogin) windows.show();
  log.info({ keyStorage: storage.protection, enrolled: agent.isEnrolled() }, 'Uptime Agent ready');
}

if (!setupSingleInstance(app, () => windowCtl?.show())) {
  // Another instance is running and has been told to show its window.
  app.quit();
} else {
  start().catch((error: unknown) => {
    // The error's own text is for the log (stderr before the log exists); the dialog says what
    // happened and what to do, from its kind.
    if (startLog === undefined) console.error('Uptime Agent could not start:', error);
    else startLog.error({ err: error }, 'Uptime Agent could not start');
    const { title, body } = startFailureText(error, { dataDir: app.getPath('userData'), logsDir: app.getPath('logs') });
    dialog.showErrorBox(title, body);
    app.exit(1);
  });
}
