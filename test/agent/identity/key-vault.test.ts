import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tempDir } from '../../support/temp-dir.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DamagedKeyError, fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';

const mode = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;
const identity = { monitorId: 'abcdefghjkmn', server: 'https://uptime.example.test' };

describe('fileKeyVault', () => {
  it('keeps key and identity in one file only the user can read', async () => {
    const dir = (await tempDir('vault-')).path;
    const vault = fileKeyVault(dir);
    expect(await vault.load()).toBeUndefined();
    await vault.save({ apiKey: 'secret-key', identity });
    expect(await mode(join(dir, 'api-key'))).toBe(0o600);
    expect(await vault.load()).toEqual({ apiKey: 'secret-key', identity });
    const details = { name: 'pc', region: 'r', country: 'DE', city: 'Berlin', enrolled_at: '2026-11-21T10:00:00.000Z' };
    await vault.save({ apiKey: 'second-key', identity: { ...identity, monitorId: 'zzzzzzzzzzzz', details } });
    expect(await vault.load()).toEqual({
      apiKey: 'second-key',
      identity: { ...identity, monitorId: 'zzzzzzzzzzzz', details },
    });
    expect(await mode(join(dir, 'api-key'))).toBe(0o600);
  });

  it('reads a bare key written by earlier versions (identity still in the store)', async () => {
    const dir = (await tempDir('vault-')).path;
    await writeFile(join(dir, 'api-key'), 'old-key\n', { mode: 0o600 });
    expect(await fileKeyVault(dir).load()).toEqual({ apiKey: 'old-key' });
  });

  it.each([
    ['words', 'this is not a key\n'],
    ['several lines', 'uak_abc\nsecond line\n'],
    ['binary', '\u0000\u0001\u00ff\u00fe'],
  ])('a non-JSON key file of %s is damaged, not "not enrolled"', async (_name, text) => {
    const dir = (await tempDir('vault-')).path;
    await writeFile(join(dir, 'api-key'), text, { mode: 0o600 });
    await expect(fileKeyVault(dir).load()).rejects.toBeInstanceOf(DamagedKeyError);
  });

  it('a folder or a device where the key file belongs is damaged, never read', async () => {
    const dir = (await tempDir('vault-')).path;
    await mkdir(join(dir, 'api-key'));
    await expect(fileKeyVault(dir).load()).rejects.toBeInstanceOf(DamagedKeyError);
    const other = (await tempDir('vault-')).path;
    await symlink('/dev/zero', join(other, 'api-key'));
    await expect(fileKeyVault(other).load()).rejects.toBeInstanceOf(DamagedKeyError);
  });

  it('says a damaged key file is damaged, and what to do', async () => {
    const dir = (await tempDir('vault-')).path;
    await writeFile(join(dir, 'api-key'), '{"api_key": "k", "monitor', { mode: 0o600 });
    const failure = fileKeyVault(dir).load();
    await expect(failure).rejects.toBeInstanceOf(DamagedKeyError);
    await expect(failure).rejects.toThrow(/damaged: enroll this agent again, or reclaim/);
  });

  it('narrows a key file that others can read, and says so', async () => {
    const dir = (await tempDir('vault-')).path;
    const warnings: string[] = [];
    const vault = fileKeyVault(dir, (w) => warnings.push(w));
    await vault.save({ apiKey: 'k', identity });
    await chmod(join(dir, 'api-key'), 0o644);
    expect((await vault.load())?.apiKey).toBe('k');
    expect(await mode(join(dir, 'api-key'))).toBe(0o600);
    expect(warnings[0]).toContain('readable by other users');
    expect(warnings[0]).not.toContain('k\n');
  });

  it('clear removes the key', async () => {
    const dir = (await tempDir('vault-')).path;
    const vault = fileKeyVault(dir);
    await vault.save({ apiKey: 'k', identity });
    await vault.clear();
    expect(await vault.load()).toBeUndefined();
    await expect(readFile(join(dir, 'api-key'))).rejects.toThrow();
  });
});
