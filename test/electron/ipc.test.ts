// IPC as the window sees it: every contract channel is there, arguments are checked, foreign
// senders are refused, and agent events reach the window only while it exists.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent, type Agent } from '../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../src-main/agent/identity/key-vault.ts';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { invokeArgs, type AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { createEventHub, type EventHub } from '../../src-main/ipc/events.ts';
import { createHandlers } from '../../src-main/ipc/handlers.ts';
import { foreignSenderError, setupIpc } from '../../src-main/electron/ipc.ts';
import { createBridge, type IpcRendererLike } from '../../src-main/electron/preload-bridge.ts';
import { createShellStore } from '../../src-main/electron/settings.ts';
import { setupWindow, type WindowController } from '../../src-main/electron/window.ts';
import { FakeIpcMain, FakeWindow } from './fake-electron.ts';
import { memoryBacking, tempDir } from './support.ts';

let agent: Agent;
let hub: EventHub;
let ipcMain: FakeIpcMain;
let windows: WindowController;
let created: FakeWindow[];
let dispose: () => void;
let removeDir: () => Promise<void>;

beforeEach(async () => {
  const dir = await tempDir('ipc-');
  removeDir = () => dir.remove();
  agent = createAgent({ dataDir: dir.path, vault: fileKeyVault(dir.path) });
  await agent.start();
  hub = createEventHub(agent, { snapshotThrottleMs: 5, transitionWindowMs: 5 });
  const store = createShellStore(memoryBacking());
  created = [];
  windows = setupWindow({
    createWindow: (options) => {
      const win = new FakeWindow(options);
      created.push(win);
      return win;
    },
    preload: '/app/preload.cjs',
    bounds: { get: () => undefined, set: () => undefined },
    workAreas: () => [{ x: 0, y: 0, width: 1920, height: 1080 }],
    isQuitting: () => false,
    openExternal: () => Promise.resolve(),
    log: silentLogger,
  });
  ipcMain = new FakeIpcMain();
  const handle = createHandlers({
    agent,
    settings: store,
    host: {
      info: () => ({
        version: '0',
        logsFolder: '/l',
        dataFolder: dir.path,
        host: 'desktop',
        platform: 'linux',
        hostName: 'h',
        keyStorage: 'k',
      }),
      chooseFile: () => Promise.resolve(undefined),
      openLogsFolder: () => Promise.resolve(),
      openExternal: () => Promise.resolve(),
    },
    log: silentLogger,
  });
  dispose = setupIpc({ ipcMain, handle, hub, window: windows, log: silentLogger });
});

afterEach(async () => {
  dispose();
  hub.close();
  await agent.stop();
  await removeDir();
});

describe('channels', () => {
  it('registers exactly the contract channels, and removes them on dispose', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual(Object.keys(invokeArgs).sort());
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
    dispose = () => undefined;
  });

  it('answers the app window', async () => {
    const answer = await ipcMain.invoke('agent:snapshot', {});
    expect(answer.ok).toBe(true);
    expect((answer as { value: AgentSnapshot }).value.enrolled).toBe(false);
    expect(await ipcMain.invoke('settings:update', { notifications: false })).toMatchObject({
      ok: true,
      value: { notifications: false },
    });
  });

  it.each([
    {
      name: 'a wrong type',
      channel: 'checks:history',
      args: { guid: 5 },
      error: { kind: 'bad-arguments', field: 'guid' },
    },
    { name: 'an unknown field', channel: 'agent:pause', args: { now: true }, error: { kind: 'bad-arguments' } },
    {
      name: 'a non-https link',
      channel: 'app:open-external',
      args: { url: 'http://example.com/' },
      error: { kind: 'bad-arguments', field: 'url' },
    },
    {
      name: 'a setting of the wrong type',
      channel: 'settings:update',
      args: { notifications: 'yes' },
      error: { kind: 'bad-arguments', field: 'notifications' },
    },
    { name: 'not an object at all', channel: 'agent:enroll', args: 'token', error: { kind: 'bad-arguments' } },
  ])('refuses $name', async ({ channel, args, error }) => {
    const answer = await ipcMain.invoke(channel, args);
    expect(answer.ok).toBe(false);
    // The argument at fault as data; the channel and zod's text stay in the log.
    expect(answer.ok ? undefined : answer.error).toEqual(error);
    expect(answer.ok ? '' : ipcErrorWords(answer.error)).not.toMatch(/[a-z]+:[a-z]|zod|expected/i);
  });
});

describe('senders', () => {
  it.each([
    { name: 'a web page', url: 'https://evil.example/index.html' },
    { name: 'a file page', url: 'file:///tmp/index.html' },
    { name: 'another app host', url: 'app://other/index.html' },
    { name: 'a look-alike host', url: 'app://agent.evil.example/index.html' },
    { name: 'about:blank', url: 'about:blank' },
    { name: 'an empty url', url: '' },
    { name: 'a destroyed frame', url: null },
  ])('refuses $name, and the agent is untouched', async ({ url }) => {
    const answer = await ipcMain.invoke('agent:pause', {}, url);
    expect(answer).toEqual({ ok: false, error: foreignSenderError });
    expect(agent.snapshot().paused).toBe(false);
    expect(await ipcMain.invoke('settings:get', {}, url)).toEqual({ ok: false, error: foreignSenderError });
  });

  it('accepts any page of the app origin', async () => {
    expect((await ipcMain.invoke('agent:pause', {}, 'app://agent/')).ok).toBe(true);
    expect(agent.snapshot().paused).toBe(true);
  });
});

describe('events to the window', () => {
  it('are dropped while there is no window, sent once it exists, dropped once it is destroyed', async () => {
    hub.refresh();
    windows.show();
    const win = created[0];
    if (win === undefined) throw new Error('no window');
    win.webContents.finishLoad();
    agent.pause();
    // The positive signal: the paused state reaches the window (no fixed pause).
    await vi.waitFor(() => {
      const snapshots = win.webContents.sentOf('agent:state-changed') as AgentSnapshot[];
      expect(snapshots.at(-1)?.paused).toBe(true);
    });
    win.destroyed = true;
    win.webContents.destroyed = true;
    const before = win.webContents.sent.length;
    expect(() => hub.refresh()).not.toThrow();
    expect(win.webContents.sent.length).toBe(before);
  });
});

/** ipcRenderer as the sandboxed preload has it, wired to the fake ipcMain as app://agent. */
function fakeIpcRenderer(
  senderUrl = 'app://agent/index.html',
): IpcRendererLike & { listeners: Map<string, Set<(e: unknown, p: unknown) => void>>; invoked: string[] } {
  const listeners = new Map<string, Set<(e: unknown, p: unknown) => void>>();
  const invoked: string[] = [];
  return {
    listeners,
    invoked,
    invoke(channel, args) {
      invoked.push(channel);
      return ipcMain.invoke(channel, args, senderUrl);
    },
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
}

describe('the preload bridge', () => {
  it('invokes contract channels through ipcRenderer and returns the result value', async () => {
    const ipc = fakeIpcRenderer();
    const bridge = createBridge(ipc);
    const answer = await bridge.invoke('agent:snapshot', {});
    expect(answer.ok && answer.value.enrolled).toBe(false);
    expect(ipc.invoked).toEqual(['agent:snapshot']);
  });

  it('refuses channels outside the contract without touching ipcRenderer', async () => {
    const ipc = fakeIpcRenderer();
    const bridge = createBridge(ipc) as unknown as { invoke(channel: string, args: unknown): Promise<unknown> };
    expect(await bridge.invoke('electron-store-get-data', {})).toMatchObject({
      ok: false,
      error: { kind: 'unknown-channel' },
    });
    expect(ipc.invoked).toEqual([]);
  });

  it('passes only the payload of contract events to listeners, and unsubscribes', () => {
    const ipc = fakeIpcRenderer();
    const bridge = createBridge(ipc);
    const got: unknown[] = [];
    const off = bridge.on('app:navigate', (payload) => got.push(payload));
    for (const listener of ipc.listeners.get('app:navigate') ?? [])
      listener({ sender: 'electron internals' }, { view: 'checks' });
    expect(got).toEqual([{ view: 'checks' }]);
    off();
    expect(ipc.listeners.get('app:navigate')?.size).toBe(0);
    const loose = bridge as unknown as { on(event: string, listener: () => void): () => void };
    loose.on('some-internal-channel', () => undefined);
    expect(ipc.listeners.has('some-internal-channel')).toBe(false);
  });
});
