// The command line's own manners (issue 24 §14-16): `run` when not enrolled touches nothing, every
// command answers --help with its own usage, and the exit codes are documented where users look.
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usageText } from '../../src-main/cli/usage.ts';
import { runCli, tempDataDir } from '../support/cli.ts';

/** Every entry under dir with its mode and size: what "left exactly as it was" compares. */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  const top = await stat(dir);
  out.push(`. ${(top.mode & 0o7777).toString(8)}`);
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const s = await stat(join(dir, name));
    out.push(`${name} ${(s.mode & 0o7777).toString(8)} ${s.isDirectory() ? 'dir' : s.size}`);
  }
  return out;
}

describe('uptime-agent run when not enrolled', () => {
  it('exits 2 with exactly one line and leaves the data folder exactly as it was', async () => {
    const dataDir = join(await tempDataDir(), 'agent');
    // A folder with a loose mode (as a user may create it): run must not tighten it either.
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    const before = await listing(dataDir);
    const result = await runCli(['run', '--data-dir', dataDir]);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('not enrolled');
    expect(await listing(dataDir)).toEqual(before);
  });

  it('a folder that does not exist is not created', async () => {
    const dataDir = join(await tempDataDir(), 'never-made');
    const result = await runCli(['run', '--data-dir', dataDir, '--checks-use-proxy']);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('--help', () => {
  it.each(['enroll', 'run', 'status', 'test-check', 'dashboard-url'])(
    '%s --help prints its own usage, exit 0, and does nothing else',
    async (command) => {
      const dataDir = join(await tempDataDir(), 'untouched');
      const result = await runCli([command, '--help', '--data-dir', dataDir]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`uptime-agent ${command}`);
      expect(result.stdout).not.toBe(`${usageText}\n`);
      await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );

  it('the overview lists exit code 8', () => {
    expect(usageText).toMatch(/\b8 /);
  });
});
