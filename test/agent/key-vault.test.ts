import { chmod, readFile, stat } from 'node:fs/promises';
import { tempDir } from '../support/temp-dir.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileKeyVault } from '../../src-main/agent/key-vault.ts';

const mode = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

describe('fileKeyVault', () => {
  it('keeps the key in a file only the user can read', async () => {
    const dir = (await tempDir('vault-')).path;
    const vault = fileKeyVault(dir);
    expect(await vault.load()).toBeUndefined();
    await vault.save('secret-key');
    expect(await mode(join(dir, 'api-key'))).toBe(0o600);
    expect(await vault.load()).toBe('secret-key');
    await vault.save('second-key');
    expect(await vault.load()).toBe('second-key');
    expect(await mode(join(dir, 'api-key'))).toBe(0o600);
  });

  it('narrows a key file that others can read, and says so', async () => {
    const dir = (await tempDir('vault-')).path;
    const warnings: string[] = [];
    const vault = fileKeyVault(dir, (w) => warnings.push(w));
    await vault.save('k');
    await chmod(join(dir, 'api-key'), 0o644);
    expect(await vault.load()).toBe('k');
    expect(await mode(join(dir, 'api-key'))).toBe(0o600);
    expect(warnings[0]).toContain('readable by other users');
    expect(warnings[0]).not.toContain('k\n');
  });

  it('clear removes the key', async () => {
    const dir = (await tempDir('vault-')).path;
    const vault = fileKeyVault(dir);
    await vault.save('k');
    await vault.clear();
    expect(await vault.load()).toBeUndefined();
    await expect(readFile(join(dir, 'api-key'))).rejects.toThrow();
  });
});
