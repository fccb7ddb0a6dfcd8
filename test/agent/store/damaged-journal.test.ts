// Issue 27 point 3: store damage SQLite passes over in silence, or that left `run` at a dead end,
// is set aside like any damaged store: a missing table, a journal (WAL) that is not one, a store
// emptied to 0 bytes beside its journal. Readable unsent results are carried over, and what
// could not be recovered is counted when it can be told. Real files; the crash is a copy of the
// three files taken while the store is open (what SIGKILL leaves).
import { copyFileSync, existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSetAside } from '../../../src-main/agent/store/agent-store.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { openStore } from '../../../src-main/agent/store/open-store.ts';
import { createOutbox } from '../../../src-main/agent/store/outbox.ts';
import type { WireResult } from '../../../src-main/agent/wire/schemas.ts';
import { tempDataDir } from '../../support/temp-dir.ts';

const now = new Date('2026-11-22T01:02:03.456Z');
const result = (i: number): WireResult => ({
  check_guid: `g${i % 4}`,
  monitor_id: 'abcdefghjkmn',
  ran_at: new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + i * 1000).toISOString(),
  success: true,
  http_status: 200,
  latency_ms: 4,
});

/** A store with `checkpointed` results in its main file and `inJournal` more only in its WAL, as a crash leaves it. */
async function crashedStore(checkpointed: number, inJournal: number): Promise<string> {
  const dir = await tempDataDir();
  const live = join(dir, 'live.db');
  const db = openDatabase(live);
  const outbox = createOutbox(db, { maxCount: 10_000, maxBytes: 1 << 30 });
  outbox.insert(Array.from({ length: checkpointed }, (_, i) => result(i)));
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  outbox.insert(Array.from({ length: inJournal }, (_, i) => result(checkpointed + i)));
  const file = join(dir, 'agent.db');
  for (const suffix of ['', '-wal', '-shm']) copyFileSync(`${live}${suffix}`, `${file}${suffix}`);
  db.close();
  return file;
}

const unsent = (file: string): number => {
  const { db } = openStore(file, now);
  const n = createOutbox(db, { maxCount: 10_000, maxBytes: 1 << 30 }).count();
  db.close();
  return n;
};

describe('store damage that used to pass in silence or end in a dead end', () => {
  it('the crash copy itself is sound: all 150 results, nothing set aside', async () => {
    const file = await crashedStore(100, 50);
    expect(openStore(file, now).setAside).toBeUndefined();
    expect(unsent(file)).toBe(150);
  });

  it('a missing table is set aside, its 150 unsent results carried over, none lost', async () => {
    const file = await crashedStore(100, 50);
    const db = openDatabase(file);
    db.exec('DROP TABLE history');
    db.close();
    const opened = openStore(file, now);
    expect(opened.setAside).toMatchObject({ recovered: 150, unrecovered: 0, reason: 'missing table history' });
    expect(createOutbox(opened.db, { maxCount: 10_000, maxBytes: 1 << 30 }).count()).toBe(150);
    // The new store has every table: the history is written again.
    expect(() => opened.db.prepare('SELECT COUNT(*) FROM history').get()).not.toThrow();
    expect(existsSync(opened.setAside?.file ?? '')).toBe(true);
    opened.db.close();
  });

  it('a missing outbox is set aside, and says its unsent results cannot be counted', async () => {
    const file = await crashedStore(100, 50);
    const db = openDatabase(file);
    db.exec('DROP TABLE outbox');
    db.close();
    const opened = openStore(file, now);
    expect(opened.setAside).toMatchObject({ recovered: 0, unrecovered: null });
    expect(describeSetAside(opened.setAside ?? { file: '', recovered: -1, unrecovered: -1, reason: '' })).toContain(
      'how many cannot be told',
    );
    opened.db.close();
  });

  it('a journal that is not one is set aside with the store: the 100 checkpointed results carried over, the loss said', async () => {
    const file = await crashedStore(100, 50);
    writeFileSync(`${file}-wal`, Buffer.alloc(40_000, 7));
    const opened = openStore(file, now);
    expect(opened.setAside).toMatchObject({
      recovered: 100,
      unrecovered: null,
      reason: 'its journal is not a SQLite journal',
    });
    expect(existsSync(`${opened.setAside?.file ?? ''}-wal`)).toBe(true);
    expect(describeSetAside(opened.setAside ?? { file: '', recovered: -1, unrecovered: -1, reason: '' })).toMatch(
      /its 100 readable unsent results were moved .*how many cannot be told/,
    );
    opened.db.close();
  });

  it('a store emptied to 0 bytes beside its journal is set aside, never opened as a new empty store', async () => {
    const file = await crashedStore(100, 50);
    truncateSync(file, 0);
    const opened = openStore(file, now);
    expect(opened.setAside).toMatchObject({ unrecovered: null, reason: 'the store file is empty beside its journal' });
    opened.db.close();
  });

  it('a junk shared-memory index loses nothing: SQLite rebuilds it from the journal', async () => {
    const file = await crashedStore(100, 50);
    writeFileSync(`${file}-shm`, Buffer.alloc(32_768, 7));
    expect(unsent(file)).toBe(150);
  });
});
