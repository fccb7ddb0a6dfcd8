// A fake of the few Electron APIs the shell uses, shaped by the interfaces the modules declare
// (which the real Electron objects satisfy: main.ts passes them in and is type-checked). Each
// fake records what was done to it and lets a test do what a user or the OS would.
import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, OpenDialogOptions } from 'electron';
import type { IpcResult } from '../../src-main/ipc/contract.ts';
import type { InvokeEventLike, IpcMainLike } from '../../src-main/electron/ipc.ts';
import type { SafeStorageLike } from '../../src-main/electron/key-vault.ts';
import type { SingleInstanceApp } from '../../src-main/electron/lifecycle.ts';
import type { NotificationLike } from '../../src-main/electron/notifications.ts';
import type { SessionLike } from '../../src-main/electron/session.ts';
import type { TrayLike } from '../../src-main/electron/tray.ts';
import type { WebContentsLike, WindowLike } from '../../src-main/electron/window.ts';
import type { Rect } from '../../src-main/electron/window-bounds.ts';

/** An Electron-style event: listeners may call preventDefault(). */
export interface FakeEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}
export const fakeEvent = <T extends object>(extra: T): FakeEvent & T => {
  const event = { defaultPrevented: false, ...extra, preventDefault: () => (event.defaultPrevented = true) };
  return event;
};

export class FakeWebContents extends EventEmitter implements WebContentsLike {
  sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;
  loading = true;
  /** What the page's URL is now (loadURL sets it; the renderer's pushState moves its hash). */
  url = '';
  openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isLoading(): boolean {
    return this.loading;
  }
  getURL(): string {
    return this.url;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** The page finished loading (what Chromium reports after loadURL). */
  finishLoad(): void {
    this.loading = false;
    this.emit('did-finish-load');
  }
  /** The page tries to navigate; returns whether the app let it. */
  navigate(url: string): boolean {
    const event = fakeEvent({ url });
    this.emit('will-navigate', event);
    return !event.defaultPrevented;
  }
  sentOf(channel: string): unknown[] {
    return this.sent.filter((m) => m.channel === channel).map((m) => m.payload);
  }
}

export class FakeWindow extends EventEmitter implements WindowLike {
  readonly webContents = new FakeWebContents();
  visible = false;
  focused = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  loadedUrl: string | undefined;
  bounds: Rect;
  readonly options: BrowserWindowConstructorOptions;
  constructor(options: BrowserWindowConstructorOptions) {
    super();
    this.options = options;
    this.bounds = {
      x: options.x ?? 100,
      y: options.y ?? 100,
      width: options.width ?? 800,
      height: options.height ?? 600,
    };
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.webContents.url = url;
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.focused = true;
  }
  restore(): void {
    this.minimized = false;
  }
  maximize(): void {
    this.maximized = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds(): Rect {
    return this.bounds;
  }
  /** The user (or the OS) closes the window; returns whether it really closed. */
  close(): boolean {
    const event = fakeEvent({});
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroyed = true;
    this.webContents.destroyed = true;
    return true;
  }
  /** Chromium painted the first frame. */
  readyToShow(): void {
    this.emit('ready-to-show');
  }
}

export class FakeTray extends EventEmitter implements TrayLike {
  images: string[] = [];
  tooltips: string[] = [];
  menus: MenuItemConstructorOptions[][] = [];
  destroyed = false;
  constructor(initialImage: string) {
    super();
    this.images.push(initialImage);
  }
  setImage(image: string): void {
    this.images.push(image);
  }
  setToolTip(text: string): void {
    this.tooltips.push(text);
  }
  setContextMenu(template: MenuItemConstructorOptions[]): void {
    this.menus.push(template);
  }
  destroy(): void {
    this.destroyed = true;
  }
  get image(): string | undefined {
    return this.images.at(-1);
  }
  get tooltip(): string | undefined {
    return this.tooltips.at(-1);
  }
  get menu(): MenuItemConstructorOptions[] {
    return this.menus.at(-1) ?? [];
  }
  item(label: string | RegExp): MenuItemConstructorOptions {
    const found = this.menu.find((i) => (typeof label === 'string' ? i.label === label : label.test(i.label ?? '')));
    if (found === undefined)
      throw new Error(`no menu item ${String(label)} in ${JSON.stringify(this.menu.map((i) => i.label))}`);
    return found;
  }
  /** A click on a menu item, as Electron calls it (the Electron arguments are not used). */
  clickItem(label: string | RegExp): void {
    const item = this.item(label);
    if (item.enabled === false) throw new Error(`menu item ${String(label)} is disabled`);
    const click = item.click as (() => void) | undefined;
    if (click === undefined) throw new Error(`menu item ${String(label)} has no click`);
    click();
  }
}

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, (event: InvokeEventLike, args: unknown) => Promise<IpcResult<unknown>>>();
  handle(channel: string, listener: (event: InvokeEventLike, args: unknown) => Promise<IpcResult<unknown>>): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What ipcRenderer.invoke from a frame at `senderUrl` would get back. */
  invoke(
    channel: string,
    args: unknown,
    senderUrl: string | null = 'app://agent/index.html',
  ): Promise<IpcResult<unknown>> {
    const handler = this.handlers.get(channel);
    if (handler === undefined) return Promise.reject(new Error(`No handler registered for '${channel}'`));
    return handler({ senderFrame: senderUrl === null ? null : { url: senderUrl } }, args);
  }
}

/**
 * safeStorage with a toy cipher (XOR and a marker): enough to tell ciphertext from plaintext in
 * what gets stored. `backend` and `available` play the OS.
 */
export class FakeSafeStorage implements SafeStorageLike {
  encryptCalls = 0;
  reEncrypt = false;
  backend: string;
  available: boolean;
  constructor(backend = 'gnome_libsecret', available = true) {
    this.backend = backend;
    this.available = available;
  }
  isAsyncEncryptionAvailable(): Promise<boolean> {
    return Promise.resolve(this.available);
  }
  encryptStringAsync(plainText: string): Promise<Buffer> {
    if (!this.available) return Promise.reject(new Error('Encryption is not available.'));
    this.encryptCalls++;
    return Promise.resolve(Buffer.concat([Buffer.from('v11'), Buffer.from(plainText).map((b) => b ^ 0x5a)]));
  }
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    if (encrypted.subarray(0, 3).toString() !== 'v11')
      return Promise.reject(new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.'));
    return Promise.resolve({
      result: Buffer.from(encrypted.subarray(3).map((b) => b ^ 0x5a)).toString(),
      shouldReEncrypt: this.reEncrypt,
    });
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
}

export class FakeNotification extends EventEmitter implements NotificationLike {
  static shown: FakeNotification[] = [];
  readonly options: { title: string; body: string };
  constructor(options: { title: string; body: string }) {
    super();
    this.options = options;
  }
  show(): void {
    FakeNotification.shown.push(this);
  }
  click(): void {
    this.emit('click');
  }
}

export class FakeSession implements SessionLike {
  readonly handlers = new Map<string, (request: Request) => Promise<Response>>();
  requestHandler:
    ((webContents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
  checkHandler: ((webContents: unknown, permission: string) => boolean) | undefined;
  readonly protocol = {
    handle: (scheme: string, handler: (request: Request) => Promise<Response>): void => {
      this.handlers.set(scheme, handler);
    },
  };
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void {
    this.checkHandler = handler;
  }
  /** A page fetches a URL of a handled scheme. */
  fetch(url: string, init?: RequestInit): Promise<Response> {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = this.handlers.get(scheme);
    if (handler === undefined) throw new Error(`scheme ${scheme} is not handled`);
    return handler(new Request(url, init));
  }
}

export class FakeApp extends EventEmitter implements SingleInstanceApp {
  lockAvailable: boolean;
  constructor(lockAvailable = true) {
    super();
    this.lockAvailable = lockAvailable;
  }
  requestSingleInstanceLock(): boolean {
    return this.lockAvailable;
  }
  loginItem = { openAtLogin: false, args: undefined as string[] | undefined };
  getLoginItemSettings(): { openAtLogin: boolean } {
    return { openAtLogin: this.loginItem.openAtLogin };
  }
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void {
    this.loginItem = { openAtLogin: settings.openAtLogin, args: settings.args };
  }
}

export class FakeShell {
  opened: string[] = [];
  paths: string[] = [];
  openPathError = '';
  openExternal(url: string): Promise<void> {
    this.opened.push(url);
    return Promise.resolve();
  }
  openPath(path: string): Promise<string> {
    this.paths.push(path);
    return Promise.resolve(this.openPathError);
  }
}

export class FakeDialog {
  asked: OpenDialogOptions[] = [];
  answer: { canceled: boolean; filePaths: string[] } = { canceled: true, filePaths: [] };
  showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }> {
    this.asked.push(options);
    return Promise.resolve(this.answer);
  }
}
