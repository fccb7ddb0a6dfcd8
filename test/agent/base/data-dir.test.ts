// The data folder is the user's alone: 0700, every file in it 0600, whatever the umask, and an
// existing folder made by an older version is narrowed at start (and says what it narrowed).
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareDataDir } from '../../../src-main/agent/base/data-dir.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { tempDataDir } from '../../support/cli.ts';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('data folder modes', () => {
  let umask: number;
  // The widest umask: modes must be set explicitly, not inherited from it.
  beforeEach(() => (umask = process.umask(0)));
  afterEach(() => process.umask(umask));

  it('creates the folder 0700 and the store, WAL and SHM 0600', async () => {
    const dir = join(await tempDataDir(), 'new', 'Uptime Agent');
    expect(prepareDataDir(dir).tightened).toEqual([]);
    expect(mode(dir)).toBe(0o700);
    const db = openDatabase(join(dir, 'agent.db'));
    db.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1)');
    for (const name of ['agent.db', 'agent.db-wal', 'agent.db-shm'])
      expect([name, mode(join(dir, name))]).toEqual([name, 0o600]);
    db.close();
  });

  it('narrows an existing folder, its files and its subfolders, and lists what it narrowed', async () => {
    const dir = await tempDataDir();
    mkdirSync(join(dir, 'logs'), { mode: 0o755 });
    const files = ['agent.db', 'agent.db-wal', 'settings.json', 'dashboard-url', join('logs', 'main.log')];
    for (const name of files) writeFileSync(join(dir, name), 'x', { mode: 0o644 });
    writeFileSync(join(dir, 'api-key'), 'k', { mode: 0o600 });
    const { chmodSync } = await import('node:fs');
    chmodSync(dir, 0o755);
    const { tightened } = prepareDataDir(dir);
    expect(tightened.sort()).toEqual([dir, join(dir, 'logs'), ...files.map((f) => join(dir, f))].sort());
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'logs'))).toBe(0o700);
    for (const name of [...files, 'api-key']) expect([name, mode(join(dir, name))]).toEqual([name, 0o600]);
    // Said once: a second start has nothing to narrow.
    expect(prepareDataDir(dir).tightened).toEqual([]);
  });
});
