// The history keyed by check key and time in ms (issue 26): its rows without a guid or an ISO
// time, the migration of a store written before, `status` reading a running agent's older store,
// and a key made in a transaction that rolls back. Real SQLite files.
import { mkdtempSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, transaction } from '../../../src-main/agent/store/database.ts';
import { allHistory, createHistory, type HistoryEntry } from '../../../src-main/agent/store/history.ts';
import { lastResults } from '../../../src-main/agent/store/results-view.ts';
import { createRollups } from '../../../src-main/agent/store/rollups.ts';

const guid = (i: number): string => `0f1e2d3c-${String(i).padStart(4, '0')}-4b5a-9687-a1b2c3d4e5f6`;
const at = (i: number): string => new Date(Date.UTC(2026, 10, 21, 10, 0, 0, 7) + i * 1000).toISOString();
const entry = (g: string, i: number): HistoryEntry => ({
  check_guid: g,
  ran_at: at(i),
  success: i % 3 !== 0,
  skipped: i % 7 === 0,
  http_status: i % 3 === 0 ? 503 : 200,
  latency_ms: 10 + i,
  error: i % 3 === 0 ? 'HTTP 503' : '',
});
const tempFile = (): string => join(mkdtempSync(join(tmpdir(), 'history-keys-')), 'agent.db');

/** A store as the schema before the keyed history left it (migrations up to the journal's). */
function storeAtSchema(file: string, version: number): DatabaseSync {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  migrate(db, version);
  return db;
}

/** Rows as the schema-6 agent wrote them: guid text and ISO time, in the ring and the journal. */
function writeOldRows(db: DatabaseSync): void {
  const ring = db.prepare(
    'INSERT INTO history (check_guid, slot, seq, ran_at, success, skipped, http_status, latency_ms, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const journal = db.prepare(
    'INSERT INTO history_log (check_guid, seq, ran_at, success, skipped, http_status, latency_ms, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const values = (e: HistoryEntry) =>
    [e.ran_at, e.success ? 1 : 0, e.skipped ? 1 : 0, e.http_status, e.latency_ms, e.error] as const;
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < 4; i++) ring.run(guid(c), i % 5, i, ...values(entry(guid(c), i)));
    for (let i = 4; i < 6; i++) journal.run(guid(c), i, ...values(entry(guid(c), i)));
  }
  // A check the rollups knew before the history did: its key is kept, not made again.
  db.prepare("INSERT INTO rollup_keys (id, guid) VALUES (40, 'rolled-only')").run();
  db.prepare('INSERT INTO rollups_minute VALUES (40, 29000000, 3, 1, 0, 5, 6, 7, 8, 3)').run();
}

describe('history rows keyed by check key, with times in ms', () => {
  it('a ring row holds no guid and no ISO time: 100 checks of 300 runs take under 50 bytes a run', () => {
    const file = tempFile();
    const db = openDatabase(file);
    const history = createHistory(db, 300);
    for (let i = 0; i < 300; i++)
      transaction(db, () => history.insert(Array.from({ length: 100 }, (_, c) => entry(guid(c), i))));
    history.compactAll();
    db.exec('VACUUM');
    const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    // With a guid and an ISO time in every row this was ~100 bytes a run.
    expect((pages * pageSize) / 30_000).toBeLessThan(50);
    const mine = history.recent(guid(42), 3);
    expect(mine).toEqual([entry(guid(42), 299), entry(guid(42), 298), entry(guid(42), 297)]);
    db.close();
  });

  it('migrates a store written with guids and ISO times: every entry, journal and rollup key kept as it was', () => {
    const file = tempFile();
    const old = storeAtSchema(file, 6);
    writeOldRows(old);
    old.close();
    const db = openDatabase(file);
    expect([...allHistory(db)].filter((e) => e.check_guid === guid(1))).toEqual(
      [0, 1, 2, 3].map((i) => entry(guid(1), i)),
    );
    const history = createHistory(db, 5);
    // The journal's entries are read with the ring's, and numbering goes on after them.
    expect(history.recent(guid(2), 10)).toEqual([5, 4, 3, 2, 1, 0].map((i) => entry(guid(2), i)));
    transaction(db, () => history.insert([entry(guid(2), 6)]));
    history.compactAll();
    expect(history.recent(guid(2), 3)).toEqual([6, 5, 4].map((i) => entry(guid(2), i)));
    expect(createRollups(db).counts('rolled-only', 'minute', 0, Number.MAX_SAFE_INTEGER).runs).toBe(3);
    db.close();
  });

  it('status reads the newest entries of a running agent whose store is still at the older schema', () => {
    const file = tempFile();
    const old = storeAtSchema(file, 6);
    writeOldRows(old);
    const newest = lastResults(old);
    expect(newest.get(guid(0))).toEqual((({ check_guid: _g, ...rest }) => rest)(entry(guid(0), 5)));
    expect(newest.size).toBe(3);
    old.close();
  });

  it('a key made in a transaction that rolls back is made again: no check reads another one’s runs', () => {
    const db = openDatabase(tempFile());
    const history = createHistory(db, 5);
    expect(() =>
      transaction(db, () => {
        history.insert([entry('a', 0)]);
        throw new Error('database or disk is full');
      }),
    ).toThrow(/disk is full/);
    // 'b' now takes the key the rolled-back row had.
    transaction(db, () => history.insert([entry('b', 1)]));
    transaction(db, () => history.insert([entry('a', 2)]));
    expect(history.recent('b', 5).map((e) => e.latency_ms)).toEqual([11]);
    expect(history.recent('a', 5).map((e) => e.latency_ms)).toEqual([12]);
    history.forget('a');
    expect(history.recent('b', 5).map((e) => e.latency_ms)).toEqual([11]);
    db.close();
  });

  it('an entry whose time does not parse is kept at the epoch: the commit with its result never fails for it', () => {
    const db = openDatabase(tempFile());
    const history = createHistory(db, 5);
    expect(() => transaction(db, () => history.insert([{ ...entry('a', 1), ran_at: 'not a time' }]))).not.toThrow();
    expect(history.recent('a', 1).map((e) => e.ran_at)).toEqual(['1970-01-01T00:00:00.000Z']);
    db.close();
  });
});
