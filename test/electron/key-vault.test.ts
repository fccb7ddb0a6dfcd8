// The desktop key vault: ciphertext only when the OS encrypts for real, and a warned-about
// user-only file when it does not (Linux without a keyring).
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../src-main/agent/base/log.ts';
import { desktopHostActions } from '../../src-main/electron/host-actions.ts';
import { createDesktopKeyVault } from '../../src-main/electron/key-vault.ts';
import { createShellStore } from '../../src-main/electron/settings.ts';
import { FakeSafeStorage } from './fake-electron.ts';
import { filesContaining, memoryBacking, tempDir } from './support.ts';

let dir: { path: string; remove(): Promise<void> };
let lines: string[];
let log: Logger;
beforeEach(async () => {
  dir = await tempDir('vault-');
  lines = [];
  log = createLogger({ write: (line: string) => lines.push(line) }, 'debug');
});
afterEach(() => dir.remove());

const key = 'ak_live_5f0c1d2e3b4a69788796a5b4c3d2e1f0';
const identity = { monitorId: 'abcdefghjkmn', server: 'https://uptime.example.test' };

describe('with OS encryption available', () => {
  it('stores only ciphertext, in the store, and reads the key back', async () => {
    const backing = memoryBacking();
    const store = createShellStore(backing);
    const safeStorage = new FakeSafeStorage('gnome_libsecret');
    const { vault, storage } = await createDesktopKeyVault({
      safeStorage,
      slot: store.apiKeySlot,
      platform: 'linux',
      dataDir: dir.path,
      log,
    });
    expect(vault.protection).toBe('os-encryption');
    expect(storage).toEqual({
      protection: 'os-encryption',
      description: 'Encrypted by the desktop keyring (gnome_libsecret)',
    });
    await vault.save({ apiKey: key, identity });
    const stored = backing.data.apiKeyCiphertext;
    expect(typeof stored).toBe('string');
    expect(JSON.stringify(backing.data)).not.toContain(key);
    expect(Buffer.from(stored as string, 'base64').toString('latin1')).not.toContain(key);
    expect(await filesContaining(dir.path, key)).toEqual([]);
    expect((await vault.load())?.apiKey).toBe(key);
    await vault.clear();
    expect(backing.data).not.toHaveProperty('apiKeyCiphertext');
    expect(await vault.load()).toBeUndefined();
  });

  it('moves a key found in the user-only file under encryption and removes the file', async () => {
    await writeFile(join(dir.path, 'api-key'), `${key}\n`, { mode: 0o600 });
    const backing = memoryBacking();
    const { vault } = await createDesktopKeyVault({
      safeStorage: new FakeSafeStorage('gnome_libsecret'),
      slot: createShellStore(backing).apiKeySlot,
      platform: 'linux',
      dataDir: dir.path,
      log,
    });
    expect((await vault.load())?.apiKey).toBe(key);
    await expect(stat(join(dir.path, 'api-key'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(typeof backing.data.apiKeyCiphertext).toBe('string');
    expect((await vault.load())?.apiKey).toBe(key);
    expect(lines.join('')).toContain('moved from its user-only file');
  });

  it('re-encrypts when the OS asks, and treats unreadable ciphertext as no key (logged)', async () => {
    const backing = memoryBacking();
    // macOS: the backend question is Linux-only, so even a "basic_text" answer is never asked.
    const safeStorage = new FakeSafeStorage('basic_text');
    const { vault } = await createDesktopKeyVault({
      safeStorage,
      slot: createShellStore(backing).apiKeySlot,
      platform: 'darwin',
      dataDir: dir.path,
      log,
    });
    await vault.save({ apiKey: key, identity });
    safeStorage.reEncrypt = true;
    expect((await vault.load())?.apiKey).toBe(key);
    expect(safeStorage.encryptCalls).toBe(2);
    backing.data.apiKeyCiphertext = Buffer.from('garbage').toString('base64');
    expect(await vault.load()).toBeUndefined();
    expect(lines.join('')).toContain('could not be decrypted');
  });
});

describe('without real encryption', () => {
  it.each([
    {
      name: 'Linux basic_text backend',
      platform: 'linux',
      backend: 'basic_text',
      available: true,
      why: /backend is "basic_text"/,
    },
    {
      name: 'Linux unknown backend',
      platform: 'linux',
      backend: 'unknown',
      available: true,
      why: /backend is "unknown"/,
    },
    {
      name: 'encryption unavailable',
      platform: 'win32',
      backend: 'n/a',
      available: false,
      why: /operating system could not encrypt/,
    },
  ] as const)(
    '$name: a user-only file, a warning in the log and in app:info',
    async ({ platform, backend, available, why }) => {
      const backing = memoryBacking();
      const safeStorage = new FakeSafeStorage(backend, available);
      const { vault, storage } = await createDesktopKeyVault({
        safeStorage,
        slot: createShellStore(backing).apiKeySlot,
        platform,
        dataDir: dir.path,
        log,
      });
      expect(vault.protection).toBe('user-only-file');
      expect(storage.warning).toMatch(why);
      expect(storage.warning).toContain(join(dir.path, 'api-key'));
      expect(storage.warning).toMatch(/restart Uptime Agent/);
      expect(lines.join('')).toContain('API key storage: Because');

      await vault.save({ apiKey: key, identity });
      expect(safeStorage.encryptCalls).toBe(0);
      expect(backing.data).not.toHaveProperty('apiKeyCiphertext');
      if (process.platform !== 'win32') expect((await stat(join(dir.path, 'api-key'))).mode & 0o777).toBe(0o600);
      expect((await vault.load())?.apiKey).toBe(key);

      const info = desktopHostActions({
        showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }),
        openPath: () => Promise.resolve(''),
        openExternal: () => Promise.resolve(),
        version: '1.0.0',
        platform,
        logsFolder: '/logs',
        dataFolder: dir.path,
        keyStorage: storage,
      }).info();
      expect(info.keyStorageWarning).toBe(storage.warning);
      expect(info.keyStorage).toContain('only your user can read');
    },
  );

  it('says that a key encrypted earlier cannot be read now', async () => {
    const backing = memoryBacking({ apiKeyCiphertext: 'djExAAAA' });
    const { storage, vault } = await createDesktopKeyVault({
      safeStorage: new FakeSafeStorage('basic_text'),
      slot: createShellStore(backing).apiKeySlot,
      platform: 'linux',
      dataDir: dir.path,
      log,
    });
    expect(storage.warning).toMatch(/encrypted earlier cannot be read now/);
    await vault.clear();
    expect(backing.data).not.toHaveProperty('apiKeyCiphertext');
  });
});
