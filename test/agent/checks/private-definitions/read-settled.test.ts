import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tempDir } from '../../../support/temp-dir.ts';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSignature, readSettled } from '../../../../src-main/agent/checks/private-definitions/read-settled.ts';

const options = { settleMs: 5, attempts: 3, maxBytes: 1024 };
let dir: string;

beforeEach(async () => {
  dir = (await tempDir('private-read-')).path;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readSettled', () => {
  it.each<{ name: string; setup: (file: string) => Promise<unknown>; outcome: unknown }>([
    { name: 'a file', setup: (f) => writeFile(f, '{"checks":[]}'), outcome: { kind: 'text', text: '{"checks":[]}' } },
    {
      name: 'a UTF-8 file with a byte order mark',
      setup: (f) => writeFile(f, '\uFEFF{"a":"é"}'),
      outcome: { kind: 'text', text: '{"a":"é"}' },
    },
    { name: 'a missing file', setup: () => Promise.resolve(), outcome: { kind: 'missing' } },
    { name: 'a file under a missing folder', setup: () => Promise.resolve(), outcome: { kind: 'missing' } },
    { name: 'a folder', setup: (f) => mkdir(f), outcome: { kind: 'directory' } },
    {
      name: 'bytes that are not UTF-8',
      setup: (f) => writeFile(f, Buffer.from([0x7b, 0xff, 0x7d])),
      outcome: { kind: 'not-utf8' },
    },
    {
      name: 'a file over the size bound',
      setup: (f) => writeFile(f, 'x'.repeat(1025)),
      outcome: { kind: 'too-large', bytes: 1025, maxBytes: 1024 },
    },
    {
      name: 'a symlink, followed',
      setup: async (f) => {
        await writeFile(join(dir, 'target.json'), 'T');
        await symlink(join(dir, 'target.json'), f);
      },
      outcome: { kind: 'text', text: 'T' },
    },
    { name: 'a dangling symlink', setup: (f) => symlink(join(dir, 'nowhere.json'), f), outcome: { kind: 'missing' } },
  ])('$name', async ({ name, setup, outcome }) => {
    const file = name.includes('missing folder') ? join(dir, 'no-such-folder', 'defs.json') : join(dir, 'defs.json');
    await setup(file);
    const read = await readSettled(file, options);
    expect(read.outcome).toEqual(outcome);
    expect(read.signature).toBe(await fileSignature(file));
  });

  it('a new version of the file has a new signature', async () => {
    const file = join(dir, 'defs.json');
    await writeFile(file, 'a');
    const first = await fileSignature(file);
    await writeFile(file, 'bb');
    expect(await fileSignature(file)).not.toBe(first);
  });
});
