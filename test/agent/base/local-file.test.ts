// The one bounded reader of local files: regular files only, never more than the cap, and a
// device or folder is a problem, not an endless read (issue 27 point 8).
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLocalFile, readLocalFileSync } from '../../../src-main/agent/base/local-file.ts';
import { tempDir } from '../../support/temp-dir.ts';

describe.each([
  ['readLocalFile', readLocalFile],
  ['readLocalFileSync', (path: string, max: number) => Promise.resolve(readLocalFileSync(path, max))],
])('%s', (_name, read) => {
  it('reads a regular file whole', async () => {
    const dir = (await tempDir()).path;
    await writeFile(join(dir, 'f'), 'hello');
    const result = await read(join(dir, 'f'), 5);
    expect(result.ok && result.bytes.toString()).toBe('hello');
  });

  it.each([
    ['a missing file', (dir: string) => Promise.resolve(join(dir, 'none')), 'missing'],
    [
      'a path through a file',
      async (dir: string) => (await writeFile(join(dir, 'f'), 'x'), join(dir, 'f', 'x')),
      'missing',
    ],
    ['a folder', async (dir: string) => (await mkdir(join(dir, 'd')), join(dir, 'd')), 'not-a-file'],
    ['/dev/zero', async (dir: string) => (await symlink('/dev/zero', join(dir, 'z')), join(dir, 'z')), 'not-a-file'],
    [
      'a file over the cap',
      async (dir: string) => (await writeFile(join(dir, 'big'), 'x'.repeat(11)), join(dir, 'big')),
      'too-large',
    ],
  ] as const)('refuses %s', async (_what, make, problem) => {
    const dir = (await tempDir()).path;
    expect(await read(await make(dir), 10)).toMatchObject({ ok: false, problem });
  });

  it('holds the cap on a file whose size says 0 (/proc)', async () => {
    expect(await read('/proc/self/status', 16)).toMatchObject({ ok: false, problem: 'too-large' });
  });
});
