// The window: secure preferences, close hides to the tray, bounds remembered, navigation
// refused, and a second launch brings it forward.
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { setupSingleInstance } from '../../src-main/electron/lifecycle.ts';
import { createShellStore, type ShellStore } from '../../src-main/electron/settings.ts';
import { placeWindow } from '../../src-main/electron/window-bounds.ts';
import { setupWindow, type WindowController } from '../../src-main/electron/window.ts';
import { FakeApp, FakeShell, FakeWindow } from './fake-electron.ts';
import { memoryBacking } from './support.ts';

const screen = { x: 0, y: 0, width: 1920, height: 1040 };

let created: FakeWindow[];
let quitting: boolean;
let shell: FakeShell;
let store: ShellStore;
let loads: number;
let windows: WindowController;

function setup(workAreas = [screen]): WindowController {
  return setupWindow({
    createWindow: (options) => {
      const win = new FakeWindow(options);
      created.push(win);
      return win;
    },
    preload: '/app/dist/main/preload.cjs',
    bounds: store.bounds,
    workAreas: () => workAreas,
    isQuitting: () => quitting,
    openExternal: (url) => shell.openExternal(url),
    onLoaded: () => loads++,
    log: silentLogger,
  });
}

function only(): FakeWindow {
  expect(created).toHaveLength(1);
  const [win] = created;
  if (win === undefined) throw new Error('no window');
  return win;
}

beforeEach(() => {
  created = [];
  quitting = false;
  shell = new FakeShell();
  store = createShellStore(memoryBacking());
  loads = 0;
  windows = setup();
});

describe('creation', () => {
  it('is sandboxed, isolated, without node, with the preload, loading app://agent', () => {
    windows.show();
    const win = only();
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: '/app/dist/main/preload.cjs',
    });
    expect(win.options.show).toBe(false);
    expect(win.loadedUrl).toBe('app://agent/index.html');
    win.readyToShow();
    expect(win.visible).toBe(true);
    win.webContents.finishLoad();
    expect(loads).toBe(1);
  });
});

describe('closing', () => {
  it('destroys the window (its renderer goes), and the next show opens the same view again', () => {
    windows.show();
    const win = only();
    win.readyToShow();
    win.webContents.finishLoad();
    // The renderer moved to a check's detail (pushState changes the page URL's hash).
    win.webContents.url = 'app://agent/index.html#/checks/g%201';
    expect(win.close()).toBe(true);
    expect(win.destroyed && win.webContents.destroyed).toBe(true);
    expect(windows.current()).toBeUndefined();
    windows.show();
    expect(created).toHaveLength(2);
    expect(created[1]?.loadedUrl).toBe('app://agent/index.html#/checks/g%201');
  });

  it('sends nothing to a closed window, and the agent goes on without one', () => {
    windows.show();
    const win = only();
    win.webContents.finishLoad();
    win.close();
    windows.send('app:navigate', { view: 'checks' });
    expect(win.webContents.sent).toEqual([]);
  });

  it('closes for real while quitting', () => {
    windows.show();
    const win = only();
    quitting = true;
    expect(win.close()).toBe(true);
    expect(windows.current()).toBeUndefined();
  });
});

describe('bounds', () => {
  it('are saved on close and used by the next window', () => {
    windows.show();
    const first = only();
    first.bounds = { x: 300, y: 200, width: 1000, height: 700 };
    first.maximized = true;
    first.close();
    expect(store.bounds.get()).toEqual({ x: 300, y: 200, width: 1000, height: 700, maximized: true });
    quitting = true;
    first.close();
    windows.show();
    const second = created[1];
    expect(second?.options).toMatchObject({ x: 300, y: 200, width: 1000, height: 700 });
    expect(second?.maximized).toBe(true);
  });

  it('are not used for a position that is on no display any more', () => {
    store.bounds.set({ x: 2500, y: 100, width: 900, height: 600, maximized: false });
    windows.show();
    const win = only();
    expect(win.options).toMatchObject({ width: 900, height: 600, center: true });
    expect(win.options.x).toBeUndefined();
  });

  it.each([
    { name: 'nothing saved', saved: undefined, placement: { width: 1100, height: 760, maximized: false } },
    {
      name: 'fully visible',
      saved: { x: 10, y: 10, width: 800, height: 600, maximized: false },
      placement: { x: 10, y: 10, width: 800, height: 600, maximized: false },
    },
    {
      name: 'mostly off the right edge but its corner visible',
      saved: { x: 1800, y: 10, width: 800, height: 600, maximized: false },
      placement: { x: 1800, y: 10, width: 800, height: 600, maximized: false },
    },
    {
      name: 'a sliver visible only',
      saved: { x: 1900, y: 10, width: 800, height: 600, maximized: false },
      placement: { width: 800, height: 600, maximized: false },
    },
    {
      name: 'on a second display',
      saved: { x: 2000, y: 100, width: 800, height: 600, maximized: false },
      areas: [screen, { x: 1920, y: 0, width: 1280, height: 1024 }],
      placement: { x: 2000, y: 100, width: 800, height: 600, maximized: false },
    },
    {
      name: 'larger than any display',
      saved: { x: 0, y: 0, width: 4000, height: 3000, maximized: false },
      placement: { x: 0, y: 0, width: 1920, height: 1040, maximized: false },
    },
  ])('placement: $name', ({ saved, areas, placement }) => {
    expect(placeWindow(saved, areas ?? [screen], 80)).toEqual(placement);
  });
});

describe('navigation', () => {
  it('stays on app:// pages and sends https links to the browser', () => {
    windows.show();
    const contents = only().webContents;
    expect(contents.navigate('app://agent/index.html')).toBe(true);
    expect(contents.navigate('https://docs.example/help')).toBe(false);
    expect(contents.navigate('http://plain.example/')).toBe(false);
    expect(contents.navigate('file:///etc/passwd')).toBe(false);
    expect(contents.navigate('javascript:alert(1)')).toBe(false);
    expect(shell.opened).toEqual(['https://docs.example/help']);
  });

  it('never opens new windows; https ones go to the browser, others nowhere', () => {
    windows.show();
    const contents = only().webContents;
    expect(contents.openHandler?.({ url: 'https://docs.example/a' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'https://bank.example@evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'app://agent/index.html' })).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://docs.example/a']);
  });

  it('delivers app:navigate once the page has loaded', () => {
    windows.show({ view: 'checks', guid: 'g1' });
    const contents = only().webContents;
    expect(contents.sentOf('app:navigate')).toEqual([]);
    contents.finishLoad();
    expect(contents.sentOf('app:navigate')).toEqual([{ view: 'checks', guid: 'g1' }]);
    windows.show({ view: 'enroll' });
    expect(contents.sentOf('app:navigate')).toEqual([{ view: 'checks', guid: 'g1' }, { view: 'enroll' }]);
  });
});

describe('second instance', () => {
  it('brings the first instance’s window forward, restored and focused', () => {
    const app = new FakeApp(true);
    expect(setupSingleInstance(app, () => windows.show())).toBe(true);
    app.emit('second-instance');
    const win = only();
    win.readyToShow();
    win.minimized = true;
    win.focused = false;
    app.emit('second-instance');
    expect(created).toHaveLength(1);
    expect(win).toMatchObject({ visible: true, focused: true, minimized: false });
  });

  it('tells the second instance to quit when the lock is taken', () => {
    const app = new FakeApp(false);
    expect(setupSingleInstance(app, () => windows.show())).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
  });
});
