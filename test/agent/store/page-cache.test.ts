import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src-main/agent/store/database.ts';
import {
  busyFromResultsPerSec,
  createPageCache,
  pageCacheKib,
  type PageCache,
} from '../../../src-main/agent/store/page-cache.ts';
import { sqliteCacheKib } from '../../support/sqlite-cache.ts';

/** `perSec` results a second, committed every 100 ms from `from` for `seconds` (monotonic ms). */
function commitAt(cache: PageCache, perSec: number, from: number, seconds: number): number {
  let at = from;
  for (let i = 0; i < seconds * 10; i++, at += 100) cache.committed(perSec / 10, at);
  return at;
}

describe('SQLite page cache sized to the results a second', () => {
  let db: Database;
  beforeEach(() => (db = openDatabase(':memory:')));
  afterEach(() => db.close());

  it('starts light, below SQLite default', () => {
    // SQLite's own default, as a connection nobody sized holds it.
    const sqliteDefault = sqliteCacheKib(db);
    const cache = createPageCache(db);
    expect(cache.kib()).toBe(pageCacheKib.light);
    expect(sqliteCacheKib(db)).toBe(pageCacheKib.light);
    expect(pageCacheKib.light).toBeLessThan(sqliteDefault);
  });

  it('grows to SQLite full cache once a window runs at the busy rate, and shrinks when the load falls', () => {
    const cache = createPageCache(db);
    const at = commitAt(cache, busyFromResultsPerSec * 2, 5_000, 11);
    expect(sqliteCacheKib(db)).toBe(pageCacheKib.busy);
    expect(cache.kib()).toBe(pageCacheKib.busy);
    commitAt(cache, 1_000, at, 11);
    expect(sqliteCacheKib(db)).toBe(pageCacheKib.light);
  });

  it('a burst shorter than the window, and a steady 1,000 a second, keep it light', () => {
    const cache = createPageCache(db);
    let at = commitAt(cache, 1_000, 0, 30);
    expect(sqliteCacheKib(db)).toBe(pageCacheKib.light);
    // Two seconds at 6,000 a second inside a window of 1,000: the window's rate stays under.
    at = commitAt(cache, 6_000, at, 2);
    commitAt(cache, 100, at, 9);
    expect(sqliteCacheKib(db)).toBe(pageCacheKib.light);
  });

  it('an agent at rest (one result every 3 s) keeps it light', () => {
    const cache = createPageCache(db);
    for (let at = 0; at < 600_000; at += 3_000) cache.committed(1, at);
    expect(sqliteCacheKib(db)).toBe(pageCacheKib.light);
  });
});
