// The built preload (dist/main/preload.cjs) run the way a sandboxed preload runs: CommonJS, with
// a `require` that knows only 'electron'. It must expose exactly { invoke, on } as `agent`.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';

const bundle = resolve(import.meta.dirname, '../../dist/main/preload.cjs');

interface Exposed {
  invoke(channel: string, args: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

let exposed: Map<string, Exposed>;
let invoked: [string, unknown][];
let listening: Map<string, (event: unknown, payload: unknown) => void>;

beforeAll(async () => {
  const code = await readFile(bundle, 'utf8').catch(() => {
    throw new Error('dist/main/preload.cjs is missing: run `npm run build:main` before this test (npm test does).');
  });
  exposed = new Map();
  invoked = [];
  listening = new Map();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Exposed) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: (channel: string, args: unknown) => {
        invoked.push([channel, args]);
        return Promise.resolve({ ok: true, value: channel });
      },
      on: (channel: string, listener: (event: unknown, payload: unknown) => void) => listening.set(channel, listener),
      removeListener: (channel: string) => listening.delete(channel),
    },
  };
  const sandboxRequire = (name: string): unknown => {
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name} (a sandboxed preload can only require electron)`);
  };
  const module = { exports: {} };
  runInNewContext(code, {
    require: sandboxRequire,
    module,
    exports: module.exports,
    Object,
    Promise,
    Error,
    Set,
    Map,
    Symbol,
    JSON,
  });
});

describe('built preload', () => {
  it('exposes exactly invoke and on, as window.agent', () => {
    expect([...exposed.keys()]).toEqual(['agent']);
    expect(Object.keys(exposed.get('agent') ?? {}).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards contract channels and refuses others', async () => {
    const agent = exposed.get('agent');
    expect(await agent?.invoke('agent:snapshot', {})).toEqual({ ok: true, value: 'agent:snapshot' });
    expect(await agent?.invoke('electron-store-get-data', {})).toMatchObject({ ok: false });
    expect(invoked).toEqual([['agent:snapshot', {}]]);
  });

  it('subscribes to contract events only, handing listeners the payload alone', () => {
    const agent = exposed.get('agent');
    const got: unknown[] = [];
    const off = agent?.on('app:navigate', (payload) => got.push(payload));
    listening.get('app:navigate')?.({ senderFrame: 'internal' }, { view: 'overview' });
    expect(got).toEqual([{ view: 'overview' }]);
    off?.();
    expect(listening.has('app:navigate')).toBe(false);
    agent?.on('ELECTRON_INTERNAL', () => undefined);
    expect(listening.has('ELECTRON_INTERNAL')).toBe(false);
  });
});
