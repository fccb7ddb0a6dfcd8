// The shell store over a plain object, and its schema and migrations run by `conf`, the package
// electron-store is built on (electron-store itself needs a running Electron).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingsSchema } from '../../src-main/ipc/contract.ts';
import {
  createShellStore,
  openWithRecovery,
  setAsideFile,
  storeMigrations,
  storeSchema,
  tunablesFrom,
} from '../../src-main/electron/settings.ts';
import { memoryBacking, tempDir } from './support.ts';

describe('shell store', () => {
  it('starts from the defaults and keeps what is updated', () => {
    const backing = memoryBacking();
    const store = createShellStore(backing);
    expect(store.get()).toEqual(settingsSchema.parse({}));
    const next = store.update({
      notifications: false,
      privateChecksFile: '/home/me/checks.json',
      intervals: { syncSec: 30 },
    });
    expect(next).toMatchObject({
      notifications: false,
      privateChecksFile: '/home/me/checks.json',
      intervals: { syncSec: 30 },
    });
    expect(createShellStore(backing).get()).toEqual(next);
  });

  it('removes a cleared optional field instead of storing undefined', () => {
    const backing = memoryBacking();
    const store = createShellStore(backing);
    store.update({ privateChecksFile: '/x.json' });
    store.update({ privateChecksFile: undefined });
    expect(backing.data.settings).not.toHaveProperty('privateChecksFile');
  });

  it('keeps the valid fields of damaged settings', () => {
    const store = createShellStore(
      memoryBacking({
        settings: { serverUrl: 'https://uptime.example', notifications: 'often', connectivityTargets: 5 },
      }),
    );
    expect(store.get()).toMatchObject({
      serverUrl: 'https://uptime.example',
      notifications: true,
      connectivityTargets: [],
    });
  });

  it('keeps window bounds only when they make sense', () => {
    const store = createShellStore(memoryBacking());
    store.bounds.set({ x: 1, y: 2, width: 900, height: 700, maximized: false });
    expect(store.bounds.get()).toEqual({ x: 1, y: 2, width: 900, height: 700, maximized: false });
    store.bounds.set({ x: 1, y: 2, width: 0, height: -5, maximized: false });
    expect(store.bounds.get()).toEqual({ x: 1, y: 2, width: 900, height: 700, maximized: false });
  });
});

describe('with conf (electron-store’s engine)', () => {
  let dir: { path: string; remove(): Promise<void> };
  beforeEach(async () => {
    dir = await tempDir('conf-');
  });
  afterEach(() => dir.remove());

  const open = (projectVersion = '0.1.0') =>
    new Conf<Record<string, unknown>>({
      cwd: dir.path,
      configName: 'config',
      projectVersion,
      schema: storeSchema,
      migrations: storeMigrations,
    });

  it('accepts everything the shell writes, and a reopened store reads it back', () => {
    const store = createShellStore(open());
    store.update({
      serverUrl: 'https://uptime.example',
      launchAtLogin: true,
      connectivityTargets: ['10.0.0.1:53'],
      intervals: { pingSec: 15 },
    });
    store.bounds.set({ x: -1200, y: 40, width: 1000, height: 800, maximized: true });
    store.apiKeySlot.set('djEx');
    const again = createShellStore(open());
    expect(again.get()).toMatchObject({
      serverUrl: 'https://uptime.example',
      launchAtLogin: true,
      connectivityTargets: ['10.0.0.1:53'],
      intervals: { pingSec: 15 },
    });
    expect(again.bounds.get()).toEqual({ x: -1200, y: 40, width: 1000, height: 800, maximized: true });
    expect(again.apiKeySlot.get()).toBe('djEx');
  });

  it('a bad field falls back alone (closed): the store is not set aside for it', async () => {
    await writeFile(
      join(dir.path, 'config.json'),
      JSON.stringify({
        __internal__: { migrations: { version: '0.1.0' } },
        settings: { egressPolicy: 'strict', notifications: 'yes', serverUrl: 'https://uptime.example' },
      }),
    );
    const store = createShellStore(open());
    expect(store.get()).toMatchObject({
      egressPolicy: 'strict',
      notifications: true,
      serverUrl: 'https://uptime.example',
    });
    expect(store.problem()).toContain('notifications');
    await writeFile(
      join(dir.path, 'config.json'),
      JSON.stringify({ __internal__: { migrations: { version: '0.1.0' } }, settings: { egressPolicy: 'strct' } }),
    );
    const closed = createShellStore(open());
    expect(closed.get().egressPolicy).toBe('strict');
    expect(closed.problem()).toContain('strict egress policy');
    closed.update({ egressPolicy: 'open' });
    expect(closed.problem()).toBeUndefined();
  });

  it('migrates a store written before the schema existed (0.1.0), keeping the valid values', async () => {
    await writeFile(
      join(dir.path, 'config.json'),
      JSON.stringify({
        settings: { serverUrl: 'https://uptime.example', notifications: 'yes', intervals: { syncSec: -1 } },
        window: { x: 'left' },
        apiKeyCiphertext: 'djEx',
      }),
    );
    const store = createShellStore(open());
    expect(store.get()).toMatchObject({ serverUrl: 'https://uptime.example', notifications: true, intervals: {} });
    expect(store.bounds.get()).toBeUndefined();
    expect(store.apiKeySlot.get()).toBe('djEx');
    const written = JSON.parse(await readFile(join(dir.path, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(written).not.toHaveProperty('window');
  });

  it('sets an unreadable file aside (kept) and starts again', async () => {
    const file = join(dir.path, 'config.json');
    await writeFile(file, '{ not json');
    const asides: (string | undefined)[] = [];
    const conf = openWithRecovery(
      () => open(),
      () => asides.push(setAsideFile(file, 1234)),
    );
    expect(asides).toEqual([join(dir.path, 'config.broken-1234.json')]);
    expect(await readFile(join(dir.path, 'config.broken-1234.json'), 'utf8')).toBe('{ not json');
    // What the set-aside file said about the egress policy is unknown: strict until one is saved.
    const store = createShellStore(conf, 'it was damaged and has been set aside');
    expect(store.get()).toEqual(settingsSchema.parse({ egressPolicy: 'strict' }));
    expect(store.problem()).toContain('strict egress policy');
    store.update({ notifications: false });
    expect(store.get().egressPolicy).toBe('strict');
    expect(store.problem()).toContain('strict egress policy');
    store.update({ egressPolicy: 'open' });
    expect(store.get().egressPolicy).toBe('open');
    expect(store.problem()).toBeUndefined();
  });

  it('retries once after setting a broken store aside', () => {
    let attempts = 0;
    const asides: unknown[] = [];
    const value = openWithRecovery(
      () => {
        attempts++;
        if (attempts === 1) throw new Error('Config schema violation: `settings/notifications` must be boolean');
        return 'opened';
      },
      (error) => asides.push(error),
    );
    expect(value).toBe('opened');
    expect(asides).toHaveLength(1);
  });
});

describe('tunables from settings', () => {
  it('overrides only what the user set', () => {
    expect(tunablesFrom(settingsSchema.parse({}))).toEqual({});
    expect(
      tunablesFrom(
        settingsSchema.parse({ intervals: { syncSec: 30, pingSec: 0.5 }, connectivityTargets: ['1.1.1.1:443'] }),
      ),
    ).toEqual({
      syncIntervalMs: 30_000,
      pingIntervalMs: 500,
      connectivityTargets: ['1.1.1.1:443'],
    });
  });
});
