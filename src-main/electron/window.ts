// The one window: created on demand, sandboxed, loading only app:// pages. Closing it destroys it
// (the agent keeps running in the tray): a hidden window would keep its renderer process, tens of
// MB, for a tray app that is mostly closed. The next show opens a new one on the same view (the
// hash route it had); a real quit comes from the tray menu or the OS.
import type { BrowserWindowConstructorOptions } from 'electron';
import type { Logger } from '../agent/base/log.ts';
import type { EventName, EventPayloads } from '../ipc/contract.ts';
import { appIndexUrl, isAppUrl } from './app-protocol.ts';
import { safeExternalUrl } from './external-url.ts';
import { placeWindow, type Rect, type SavedBounds } from './window-bounds.ts';

/** The parts of Electron's `WebContents` used here. */
export interface WebContentsLike {
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
  isLoading(): boolean;
  /** The page's URL, whose hash is the open view. */
  getURL(): string;
  once(event: 'did-finish-load', listener: () => void): unknown;
  on(event: 'will-navigate', listener: (event: { preventDefault(): void; url: string }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** The parts of Electron's `BrowserWindow` used here. */
export interface WindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  getNormalBounds(): Rect;
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  once(event: 'ready-to-show', listener: () => void): unknown;
}

export interface WindowDeps {
  createWindow(options: BrowserWindowConstructorOptions): WindowLike;
  /** The built preload bundle (dist/main/preload.cjs). */
  preload: string;
  icon?: string;
  bounds: { get(): SavedBounds | undefined; set(bounds: SavedBounds): void };
  /** Work areas of the connected displays. */
  workAreas(): Rect[];
  isQuitting(): boolean;
  openExternal(url: string): Promise<void>;
  /** A new window was created (e.g. send it the current snapshot once it loads). */
  onLoaded?(): void;
  log: Logger;
}

export interface WindowController {
  /** Shows (creating if needed) and focuses the window, optionally on one view. */
  show(navigate?: EventPayloads['app:navigate']): void;
  /** The live window, if any. */
  current(): WindowLike | undefined;
  /** Sends an event to the window when there is one to receive it; drops it otherwise. */
  send<E extends EventName>(event: E, payload: EventPayloads[E]): void;
}

export const windowTitle = 'Uptime Agent';

/** The hash route of an app page ("#/checks/g1"), or '' for anything else. */
export function routeOf(url: string): string {
  if (!isAppUrl(url)) return '';
  const hash = url.indexOf('#');
  return hash === -1 ? '' : url.slice(hash);
}

export function setupWindow(deps: WindowDeps): WindowController {
  let win: WindowLike | undefined;
  // The view the last window showed (its hash route), reopened by the next window.
  let lastRoute = '';
  const live = (): WindowLike | undefined => (win !== undefined && !win.isDestroyed() ? win : undefined);

  function openOutside(url: string): void {
    const safe = safeExternalUrl(url);
    if (safe === undefined) {
      deps.log.warn({ url: url.slice(0, 200) }, 'refused to open a link that is not https');
      return;
    }
    deps
      .openExternal(safe)
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not open a link in the browser'));
  }

  function create(): WindowLike {
    const placement = placeWindow(deps.bounds.get(), deps.workAreas());
    const created = deps.createWindow({
      title: windowTitle,
      width: placement.width,
      height: placement.height,
      ...(placement.x === undefined ? { center: true } : { x: placement.x, y: placement.y }),
      minWidth: 480,
      minHeight: 360,
      show: false,
      ...(deps.icon === undefined ? {} : { icon: deps.icon }),
      autoHideMenuBar: true,
      webPreferences: {
        preload: deps.preload,
        // These are Electron's defaults; spelled out so that nobody turns them off by accident.
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        spellcheck: false,
      },
    });
    if (placement.maximized) created.maximize();
    created.once('ready-to-show', () => created.show());
    created.on('close', () => {
      deps.bounds.set({ ...created.getNormalBounds(), maximized: created.isMaximized() });
      if (deps.isQuitting()) return;
      lastRoute = routeOf(created.webContents.getURL());
      // Not prevented: the window and its renderer go; the tray keeps the agent.
    });
    const contents = created.webContents;
    contents.on('will-navigate', (event) => {
      // Reloads and in-app links stay; anything else is refused, https goes to the browser.
      if (isAppUrl(event.url)) return;
      event.preventDefault();
      openOutside(event.url);
    });
    contents.setWindowOpenHandler(({ url }) => {
      openOutside(url);
      return { action: 'deny' };
    });
    contents.once('did-finish-load', () => deps.onLoaded?.());
    created
      .loadURL(appIndexUrl + lastRoute)
      .catch((error: unknown) => deps.log.error({ err: error }, 'the window could not load the app'));
    return created;
  }

  function send<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    const contents = live()?.webContents;
    if (contents === undefined || contents.isDestroyed()) return;
    contents.send(event, payload);
  }

  return {
    show(navigate) {
      const existing = live();
      const target = existing ?? create();
      win = target;
      if (existing !== undefined) {
        if (target.isMinimized()) target.restore();
        target.show();
        target.focus();
      }
      if (navigate === undefined) return;
      // A window still loading has no listener yet: tell it once the page is there.
      if (target.webContents.isLoading())
        target.webContents.once('did-finish-load', () => send('app:navigate', navigate));
      else send('app:navigate', navigate);
    },
    current: live,
    send,
  };
}
