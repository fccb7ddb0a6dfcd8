import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { allHistory, createHistory, type HistoryEntry } from '../../../src-main/agent/store/history.ts';

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
    expect(history.recent('a', 100).map((e) => e.latency_ms)).toEqual([11, 10, 9, 8, 7]);
    expect((db.prepare("SELECT COUNT(*) AS n FROM history WHERE check_guid = 'a'").get() as { n: number }).n).toBe(5);
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
