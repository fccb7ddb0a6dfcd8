import { describe, expect, it } from 'vitest';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, transaction } from '../../../src-main/agent/store/database.ts';
import {
  allHistory,
  createHistory,
  historyCompaction,
  type HistoryEntry,
} from '../../../src-main/agent/store/history.ts';
import { lastResults } from '../../../src-main/agent/store/results-view.ts';

const entry = (guid: string, i: number): HistoryEntry => ({
  check_guid: guid,
  ran_at: `2026-11-21T10:00:${String(i).padStart(2, '0')}.000Z`,
  success: i % 2 === 0,
  skipped: false,
  http_status: 200,
  latency_ms: i,
  error: '',
});

describe('history ring', () => {
  it('keeps the newest entries per check, newest first, and no more than its slots', () => {
    const db = openDatabase(':memory:');
    const history = createHistory(db, 5);
    history.insert(Array.from({ length: 12 }, (_, i) => entry('a', i)));
    history.insert([entry('b', 0)]);
    expect(history.recent('a', 100).map((e) => e.latency_ms)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    history.compactAll();
    expect(history.recent('a', 100).map((e) => e.latency_ms)).toEqual([11, 10, 9, 8, 7]);
    expect(
      (
        db
          .prepare("SELECT COUNT(*) AS n FROM history JOIN check_keys k ON k.id = check_id WHERE k.guid = 'a'")
          .get() as { n: number }
      ).n,
    ).toBe(5);
    // A reopened ring continues where it was.
    const again = createHistory(db, 5);
    again.insert([entry('a', 12)]);
    expect(again.recent('a', 2).map((e) => e.latency_ms)).toEqual([12, 11]);
    expect(again.recent('b', 5)).toHaveLength(1);
  });

  it('gives every kept entry at start-up in run order per check, also where the ring has wrapped', () => {
    const db = openDatabase(':memory:');
    const history = createHistory(db, 5);
    // Interleaved checks; 'a' wraps its ring twice, so its slot order is not its run order.
    for (let i = 0; i < 13; i++) history.insert([entry('a', i), ...(i < 3 ? [entry('b', i)] : [])]);
    history.compactAll();
    const seen = [...allHistory(db)].map((e) => `${e.check_guid}${e.latency_ms}`);
    expect(seen).toEqual(['a8', 'a9', 'a10', 'a11', 'a12', 'b0', 'b1', 'b2']);
  });

  it('writes one page region per run: the ring has no second index to keep', () => {
    const db = openDatabase(':memory:');
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'history' AND sql IS NOT NULL")
      .all();
    expect(indexes).toEqual([]);
  });
});

describe('history journal (issue 26: every run rewrote a page of its own check)', () => {
  const guids = Array.from({ length: 400 }, (_, i) => `0f1e2d3c-${String(i).padStart(4, '0')}-4b5a-9687-a1b2c3d4e5f6`);
  const walPages = (file: string): number => Math.round(statSync(`${file}-wal`).size / 4096);

  it('a commit of results from 200 checks writes a few pages, not one per check', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'history-')), 'agent.db');
    const db = openDatabase(file);
    db.exec('PRAGMA wal_autocheckpoint = 0');
    const history = createHistory(db, 300);
    // Every check has a ring of some length already, as after a few minutes of runs.
    for (let round = 0; round < 20; round++) transaction(db, () => history.insert(guids.map((g) => entry(g, round))));
    history.compactAll();
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const before = walPages(file);
    transaction(db, () => history.insert(guids.slice(0, 200).map((g) => entry(g, 21))));
    const written = walPages(file) - before;
    // Straight into the rings this was 200+ pages (each check's ring page, and the tree above).
    expect(written).toBeLessThan(20);
    db.close();
  });

  it('moves the journal into the rings in bounded steps, grouped by check, and reads stay whole throughout', () => {
    const db = openDatabase(':memory:');
    const sizes = { ...historyCompaction, stepRows: 100, stepChecks: 50, minRows: 10 };
    const history = createHistory(db, 5, sizes);
    for (let round = 0; round < 8; round++) transaction(db, () => history.insert(guids.map((g) => entry(g, round))));
    expect(history.compactionDue()).toBe(true);
    const newest = (): number[] => guids.slice(0, 3).flatMap((g) => history.recent(g, 5).map((e) => e.latency_ms));
    const expected = [7, 6, 5, 4, 3, 7, 6, 5, 4, 3, 7, 6, 5, 4, 3];
    let steps = 0;
    while (history.compactStep()) {
      steps++;
      // A run committed mid-move lands in the journal and is read with the rest.
      if (steps === 20) transaction(db, () => history.insert([entry(guids[0] ?? '', 8)]));
      expect(newest().slice(5)).toEqual(expected.slice(5));
    }
    // 3,200 rows read in 32 steps, 400 checks written in 8, 3,200 rows deleted in 32.
    expect(steps).toBeGreaterThanOrEqual(70);
    expect(history.recent(guids[0] ?? '', 5).map((e) => e.latency_ms)).toEqual([8, 7, 6, 5, 4]);
    expect(history.compactionDue()).toBe(false);
    const ring = db.prepare('SELECT COUNT(*) AS n FROM history').get() as { n: number };
    expect(ring.n).toBe(400 * 5);
    db.close();
  });

  it('a move cut short by a crash is finished at the next start, and nothing is counted twice', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'history-')), 'agent.db');
    const db = openDatabase(file);
    const sizes = { ...historyCompaction, stepRows: 50, stepChecks: 10 };
    const history = createHistory(db, 5, sizes);
    for (let round = 0; round < 7; round++)
      transaction(db, () => history.insert(guids.slice(0, 30).map((g) => entry(g, round))));
    // Read, then write a few checks' rings, and stop there (the process was killed).
    for (let step = 0; step < 7; step++) history.compactStep();
    db.close();
    const again = openDatabase(file);
    const reopened = createHistory(again, 5);
    expect(lastResults(again).get(guids[29] ?? '')?.latency_ms).toBe(6);
    // Before the move is finished, a check's numbering goes on from the journal, not the ring.
    transaction(again, () => reopened.insert([entry(guids[29] ?? '', 7)]));
    expect(reopened.recent(guids[29] ?? '', 2).map((e) => e.latency_ms)).toEqual([7, 6]);
    reopened.compactAll();
    const seen = [...allHistory(again)].filter((e) => e.check_guid === guids[0]).map((e) => e.latency_ms);
    expect(seen).toEqual([2, 3, 4, 5, 6]);
    expect((again.prepare('SELECT COUNT(*) AS n FROM history_log').get() as { n: number }).n).toBe(0);
    // The sequence goes on from the journal's newest, not from the ring's.
    reopened.insert([entry(guids[0] ?? '', 7)]);
    expect(reopened.recent(guids[0] ?? '', 2).map((e) => e.latency_ms)).toEqual([7, 6]);
    again.close();
  });

  it('a journal whose ids have grown large (a day of runs) is moved in as few steps as a new one', () => {
    const db = openDatabase(':memory:');
    const history = createHistory(db, 5, { ...historyCompaction, stepRows: 100, stepChecks: 50 });
    // Runs keep coming during every move, so the journal is never empty and its ids only grow.
    db.exec(`INSERT INTO check_keys (id, guid) VALUES (1000, 'x');
      INSERT INTO history_log (id, check_id, seq, ran_at, success, skipped, http_status, latency_ms, error)
      VALUES (86400000, 1000, 0, 1795255200000, 1, 0, 200, 1, '')`);
    transaction(db, () => history.insert(guids.slice(0, 100).map((g) => entry(g, 0))));
    let steps = 1;
    while (history.compactStep()) steps++;
    // 101 rows: 2 reads, 3 writes, 2 deletes (stepping through 86 million ids was 864,000 steps).
    expect(steps).toBeLessThan(10);
    expect((db.prepare('SELECT COUNT(*) AS n FROM history_log').get() as { n: number }).n).toBe(0);
    db.close();
  });

  it('a write the store refuses mid-move (a full disk) is tried again and skips no entry', () => {
    const db = openDatabase(':memory:');
    const history = createHistory(db, 5, { ...historyCompaction, stepRows: 1000, stepChecks: 2 });
    for (let round = 0; round < 3; round++)
      transaction(db, () => history.insert(guids.slice(0, 6).map((g) => entry(g, round))));
    history.compactStep(); // read
    history.compactStep(); // two checks written
    db.exec(
      "CREATE TEMP TRIGGER refuse BEFORE INSERT ON history BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
    );
    expect(() => history.compactStep()).toThrow(/disk is full/);
    expect(history.compactionDue()).toBe(true);
    db.exec('DROP TRIGGER refuse');
    history.compactAll();
    expect((db.prepare('SELECT COUNT(*) AS n FROM history_log').get() as { n: number }).n).toBe(0);
    for (const guid of guids.slice(0, 6))
      expect([...allHistory(db)].filter((e) => e.check_guid === guid).map((e) => e.latency_ms)).toEqual([0, 1, 2]);
    db.close();
  });

  it('forgetting a check mid-move drops it from the move too', () => {
    const db = openDatabase(':memory:');
    const history = createHistory(db, 5, { ...historyCompaction, stepRows: 1000, stepChecks: 1 });
    transaction(db, () => history.insert(guids.slice(0, 3).map((g) => entry(g, 0))));
    history.compactStep(); // read
    history.forget(guids[2] ?? '');
    history.compactAll();
    expect(history.recent(guids[2] ?? '', 5)).toEqual([]);
    expect(history.recent(guids[1] ?? '', 5)).toHaveLength(1);
    db.close();
  });
});
