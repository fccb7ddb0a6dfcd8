import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, transaction, type Database } from '../../../src-main/agent/store/database.ts';
import { createOutbox } from '../../../src-main/agent/store/outbox.ts';
import type { WireResult } from '../../../src-main/agent/wire/schemas.ts';

const result = (i: number, extra = ''): WireResult => ({
  check_guid: `g${i % 3}`,
  monitor_id: 'm',
  ran_at: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
  success: true,
  http_status: 200,
  latency_ms: 5,
  ...(extra === '' ? {} : { error: extra }),
});

describe('outbox', () => {
  let db: Database;
  beforeEach(() => (db = openDatabase(':memory:')));
  afterEach(() => db.close());

  it('keeps results in commit order and removes only what it is told', () => {
    const outbox = createOutbox(db, { maxCount: 100, maxBytes: 1 << 20 });
    outbox.insert([0, 1, 2, 3, 4].map((i) => result(i)));
    const batch = outbox.peek(3, 1 << 20);
    expect(batch.map((r) => (JSON.parse(r.payload) as WireResult).ran_at)).toEqual(
      [0, 1, 2].map((i) => result(i).ran_at),
    );
    outbox.remove(batch.map((r) => r.id));
    expect(outbox.count()).toBe(2);
    expect(outbox.oldestRanAt()).toBe(result(3).ran_at);
  });

  it('removes scattered ids (after a rejection) and keeps count and bytes exact, in one commit', () => {
    const outbox = createOutbox(db, { maxCount: 100, maxBytes: 1 << 20 });
    outbox.insert(Array.from({ length: 10 }, (_, i) => result(i, i % 2 === 0 ? 'even' : '')));
    const rows = outbox.peek(10, 1 << 20);
    const gone = rows.filter((_, i) => i !== 3 && i !== 7);
    const changesBefore = (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    outbox.remove([...gone.map((r) => r.id), gone[0]?.id ?? 0]);
    const kept = outbox.peek(10, 1 << 20);
    expect(kept.map((r) => r.id)).toEqual([rows[3]?.id, rows[7]?.id]);
    expect(outbox.count()).toBe(2);
    expect(outbox.bytes()).toBe(kept.reduce((sum, r) => sum + r.bytes, 0));
    expect((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n - changesBefore).toBe(8);
    expect(db.isTransaction).toBe(false);
  });

  it("sets a rejected row aside and removes it together, also inside a caller's transaction", () => {
    const outbox = createOutbox(db, { maxCount: 100, maxBytes: 1 << 20 });
    outbox.insert([0, 1, 2].map((i) => result(i)));
    const [first, second] = outbox.peek(2, 1 << 20);
    if (first === undefined || second === undefined) throw new Error('two rows expected');
    outbox.reject(first, 'bad', new Date(0));
    transaction(db, () => outbox.reject(second, 'worse', new Date(0)));
    expect(outbox.rejectedCount()).toBe(2);
    expect(outbox.count()).toBe(1);
  });

  it('cuts a batch under the byte limit, but always returns at least one row', () => {
    const outbox = createOutbox(db, { maxCount: 100, maxBytes: 1 << 20 });
    outbox.insert([result(0, 'x'.repeat(500)), result(1, 'y'.repeat(500)), result(2)]);
    const one = outbox.peek(10, 700);
    expect(one).toHaveLength(1);
    expect(outbox.peek(10, 10)).toHaveLength(1);
    expect(outbox.peek(10, 2000)).toHaveLength(3);
  });

  it('drops the oldest beyond the count bound and counts them', () => {
    const outbox = createOutbox(db, { maxCount: 5, maxBytes: 1 << 20 });
    transaction(db, () => {
      outbox.insert(Array.from({ length: 8 }, (_, i) => result(i)));
      expect(outbox.enforceBound()).toBe(3);
    });
    expect(outbox.count()).toBe(5);
    expect(outbox.dropped()).toBe(3);
    expect(outbox.oldestRanAt()).toBe(result(3).ran_at);
  });

  it('drops the oldest beyond the byte bound', () => {
    const outbox = createOutbox(db, { maxCount: 1000, maxBytes: 1000 });
    transaction(db, () => {
      outbox.insert(Array.from({ length: 20 }, (_, i) => result(i)));
      outbox.enforceBound();
    });
    expect(outbox.bytes()).toBeLessThanOrEqual(1000);
    expect(outbox.count() + outbox.dropped()).toBe(20);
  });

  it('sets a rejected result aside with its reason', () => {
    const outbox = createOutbox(db, { maxCount: 100, maxBytes: 1 << 20 });
    outbox.insert([result(0), result(1)]);
    const [first] = outbox.peek(1, 1 << 20);
    if (first === undefined) throw new Error('no row');
    outbox.reject(first, 'invalid ran_at', new Date('2026-11-21T11:00:00Z'));
    expect(outbox.count()).toBe(1);
    expect(outbox.rejectedCount()).toBe(1);
    expect(outbox.rejected()[0]).toMatchObject({ check_guid: 'g0', reason: 'invalid ran_at' });
  });

  it('reads its totals back from the table when reopened', () => {
    const outbox = createOutbox(db, { maxCount: 100, maxBytes: 1 << 20 });
    outbox.insert([result(0), result(1)]);
    const again = createOutbox(db, { maxCount: 100, maxBytes: 1 << 20 });
    expect(again.count()).toBe(2);
    expect(again.bytes()).toBe(outbox.bytes());
  });
});
