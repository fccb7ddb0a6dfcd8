// The source against real files in a temporary folder: real fs.watch events, real renames, real
// permission bits. Waits are for a state to arrive (bounded by a generous timeout), never sleeps.
import { chmod, mkdir, open, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tempDir } from '../../../support/temp-dir.ts';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../../../src-main/agent/base/log.ts';
import {
  createPrivateDefinitionsSource,
  openPrivateDefinitions,
  type PrivateDefinitionsOptions,
  type PrivateDefinitionsSource,
  type PrivateDefinitionsState,
} from '../../../../src-main/agent/checks/private-definitions/index.ts';

let dir: string;
let file: string;
const sources: PrivateDefinitionsSource[] = [];
const extraDirs: string[] = [];

beforeEach(async () => {
  dir = (await tempDir('private-defs-')).path;
  file = join(dir, 'private-checks.json');
});
afterEach(async () => {
  for (const source of sources.splice(0)) source.close();
  for (const path of [dir, ...extraDirs.splice(0)]) await rm(path, { recursive: true, force: true });
});

/** A file with one http entry per guid. */
const defs = (...guids: string[]) =>
  JSON.stringify({ checks: guids.map((guid) => ({ guid, url: `http://${guid}.test/` })) }, null, 2);
const guidsOf = (state: PrivateDefinitionsState) => [...state.entries.keys()];

interface Tracker {
  states: PrivateDefinitionsState[];
  onChange: (state: PrivateDefinitionsState) => void;
  /** The first state from now on (or the latest one) that satisfies `predicate`. */
  until: (what: string, predicate: (state: PrivateDefinitionsState) => boolean) => Promise<PrivateDefinitionsState>;
}

function tracker(): Tracker {
  const states: PrivateDefinitionsState[] = [];
  const waiters = new Set<(state: PrivateDefinitionsState) => void>();
  return {
    states,
    onChange(state) {
      states.push(state);
      for (const waiter of [...waiters]) waiter(state);
    },
    until(what, predicate) {
      const latest = states.at(-1);
      if (latest !== undefined && predicate(latest)) return Promise.resolve(latest);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const last = states.at(-1);
          const seen =
            last === undefined ? 'none' : JSON.stringify({ guids: guidsOf(last), fileError: last.fileError });
          reject(new Error(`no state with ${what} arrived; the last one was ${seen}`));
        }, 15_000);
        const waiter = (state: PrivateDefinitionsState) => {
          if (!predicate(state)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(state);
        };
        waiters.add(waiter);
      });
    },
  };
}

async function start(t: Tracker, options: Partial<PrivateDefinitionsOptions> = {}): Promise<PrivateDefinitionsSource> {
  // A long poll, so these tests see fs.watch at work; the poll has tests of its own.
  const source = await openPrivateDefinitions({
    file,
    log: silentLogger,
    onChange: t.onChange,
    debounceMs: 20,
    pollMs: 60_000,
    ...options,
  });
  sources.push(source);
  return source;
}

const hasGuids =
  (...guids: string[]) =>
  (state: PrivateDefinitionsState) =>
    state.fileError === undefined && guidsOf(state).join() === guids.join();

describe('private definitions source: loading', () => {
  it('reads the file before it resolves and tells onChange once', async () => {
    await writeFile(file, defs('a', 'b'));
    const t = tracker();
    const source = await start(t);
    expect(guidsOf(source.current())).toEqual(['a', 'b']);
    expect(source.current()).toMatchObject({ file, problems: [], loadedAt: expect.any(String) as unknown });
    expect(source.current().fileError).toBeUndefined();
    expect(t.states).toEqual([source.current()]);
  });

  it('createPrivateDefinitionsSource starts empty and delivers the first read through onChange', async () => {
    await writeFile(file, defs('a'));
    const t = tracker();
    const source = createPrivateDefinitionsSource({
      file,
      log: silentLogger,
      onChange: t.onChange,
      debounceMs: 20,
      pollMs: 60_000,
    });
    sources.push(source);
    expect(source.current()).toEqual({ file, entries: new Map(), problems: [] });
    await t.until('entry a', hasGuids('a'));
  });

  it('a missing file gives no entries, says what to do, and loads once it is created', async () => {
    const t = tracker();
    const source = await start(t);
    expect(source.current()).toEqual({
      file,
      entries: new Map(),
      problems: [],
      fileError: `private definitions file ${file} not found — create it or choose another file`,
    });
    await writeFile(file, defs('a'));
    await t.until('entry a', hasGuids('a'));
  });

  it('reload() reads now and resolves with the new state', async () => {
    await writeFile(file, defs('a'));
    const source = await start(tracker());
    await writeFile(file, defs('b'));
    expect(guidsOf(await source.reload())).toEqual(['b']);
  });

  it('does not call onChange when a read finds nothing new', async () => {
    await writeFile(file, defs('a'));
    const t = tracker();
    const source = await start(t);
    await writeFile(file, defs('a'));
    await source.reload();
    expect(t.states).toHaveLength(1);
  });

  it.skipIf(process.getuid?.() === 0)(
    'an unreadable file gives no entries and says so (skipped as root: root reads anything)',
    async () => {
      await writeFile(file, defs('a'));
      const t = tracker();
      await start(t);
      await chmod(file, 0o000);
      const state = await t.until('permission denied', (s) => s.fileError?.includes('permission denied') === true);
      expect(state.entries.size).toBe(0);
      expect(state.fileError).toContain(file);
    },
  );
});

describe('private definitions source: live changes', () => {
  it('notices an in-place write', async () => {
    await writeFile(file, defs('a'));
    const t = tracker();
    await start(t);
    await writeFile(file, defs('a', 'b', 'c'));
    await t.until('entries a, b, c', hasGuids('a', 'b', 'c'));
  });

  it('notices a save by rename, as editors do', async () => {
    await writeFile(file, defs('a'));
    const t = tracker();
    await start(t);
    for (const guid of ['b', 'c']) {
      const temporary = join(dir, `.private-checks.json.${guid}.tmp`);
      await writeFile(temporary, defs(guid));
      await rename(temporary, file);
      await t.until(`entry ${guid}`, hasGuids(guid));
    }
  });

  it.each([
    { name: 'half-saved JSON', text: '{ "checks": [ { "guid": "b",', says: 'not valid JSON at line 1 column 29' },
    { name: 'an empty file', text: '', says: 'the file ends too early' },
    { name: 'the wrong shape', text: '[{ "guid": "b" }]', says: 'must hold an object with a "checks" array' },
    { name: 'bytes that are not UTF-8', text: Buffer.from([0x7b, 0xfe, 0x7d]), says: 'is not UTF-8 text' },
  ])('keeps the last good entries on a save with $name and recovers after the fix', async ({ text, says }) => {
    await writeFile(file, defs('a'));
    const t = tracker();
    await start(t);
    await writeFile(file, text);
    const broken = await t.until(says, (s) => s.fileError?.includes(says) === true);
    expect(guidsOf(broken)).toEqual(['a']);
    expect(broken.fileError).toContain('the last good version');
    await writeFile(file, defs('b'));
    await t.until('entry b and no error', hasGuids('b'));
  });

  it('deleting the file empties the entries; creating it again loads them', async () => {
    await writeFile(file, defs('a'));
    const t = tracker();
    await start(t);
    await unlink(file);
    const gone = await t.until('not found', (s) => s.fileError?.includes('not found') === true);
    expect(gone.entries.size).toBe(0);
    await writeFile(file, defs('b'));
    await t.until('entry b', hasGuids('b'));
  });

  it('never applies a half-written file: a slow writer pausing between two chunks', async () => {
    await writeFile(file, defs('old'));
    const many = Array.from({ length: 3000 }, (_, i) => `guid-${i}`);
    const full = Buffer.from(defs(...many));
    const t = tracker();
    await start(t);
    const handle = await open(file, 'w');
    try {
      await handle.write(full.subarray(0, full.length / 2));
      // The pause: the source sees the first half, refuses it, and keeps the old entries.
      const seen = await t.until('the half-written file refused', (s) => s.fileError !== undefined);
      expect(guidsOf(seen)).toEqual(['old']);
      await handle.write(full.subarray(full.length / 2));
    } finally {
      await handle.close();
    }
    await t.until('all new entries', hasGuids(...many));
    for (const state of t.states) {
      expect([['old'].join(), many.join()]).toContain(guidsOf(state).join());
    }
  });

  it('follows a symlink and notices a save to its target', async () => {
    const elsewhere = (await tempDir('private-defs-target-')).path;
    extraDirs.push(elsewhere);
    const target = join(elsewhere, 'real.json');
    await writeFile(target, defs('a'));
    await symlink(target, file);
    const t = tracker();
    const source = await start(t, { pollMs: 100 });
    expect(guidsOf(source.current())).toEqual(['a']);
    await writeFile(join(elsewhere, 'real.json.tmp'), defs('b'));
    await rename(join(elsewhere, 'real.json.tmp'), target);
    await t.until('entry b', hasGuids('b'));
  });

  it('polls where no watch could be set up: a folder created later', async () => {
    file = join(dir, 'later', 'private-checks.json');
    const t = tracker();
    await start(t, { pollMs: 50 });
    await mkdir(join(dir, 'later'));
    await writeFile(file, defs('a'));
    await t.until('entry a', hasGuids('a'));
    // Once found, the folder is watched too; either way the next save is seen.
    await writeFile(file, defs('b'));
    await t.until('entry b', hasGuids('b'));
  });

  it('a listener that throws does not stop later changes', async () => {
    await writeFile(file, defs('a'));
    const t = tracker();
    await start(t, {
      onChange(state) {
        t.onChange(state);
        throw new Error('listener bug');
      },
    });
    await writeFile(file, defs('b'));
    await t.until('entry b', hasGuids('b'));
  });

  it('after close() nothing is read any more', async () => {
    await writeFile(file, defs('a'));
    const t = tracker();
    const source = await start(t);
    source.close();
    await writeFile(file, defs('b'));
    expect(guidsOf(await source.reload())).toEqual(['a']);
    expect(guidsOf(source.current())).toEqual(['a']);
  });
});

describe('private definitions source: logging', () => {
  it('logs counts and file errors, never a definition value', async () => {
    const secrets = ['S3cretPass', 'HdrSecretValue', 'PostSecretBody', 'MatchSecretText'];
    const lines: string[] = [];
    const log = createLogger({ write: (line: string) => void lines.push(line) }, 'debug');
    await writeFile(
      file,
      JSON.stringify({
        checks: [
          {
            guid: 'a',
            url: 'https://u:S3cretPass@a.test',
            headers: { 'X-Key': 'HdrSecretValue' },
            post_data: 'PostSecretBody',
            match_string: 'MatchSecretText',
            extra: 'HdrSecretValue',
          },
          { guid: 'b', url: 'ftp://u:S3cretPass@b.test', match_string: 'MatchSecretText' },
        ],
      }),
    );
    const t = tracker();
    await start(t, { log });
    await writeFile(
      file,
      `{"checks": [{"guid": "a", "url": "https://u:S3cretPass@a.test", "match_string": MatchSecretText}]}`,
    );
    await t.until('the broken save refused', (s) => s.fileError !== undefined);

    const text = lines.join('');
    expect(text).toContain('"msg":"private definitions read"');
    expect(text).toContain('"entries":1');
    expect(text).toContain('check \\"b\\" (entry 2): url must start with');
    expect(text).toContain('not valid JSON at line 1');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
