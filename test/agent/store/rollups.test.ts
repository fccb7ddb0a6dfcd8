import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createRollups, uptimePercent, type RollupRun } from '../../../src-main/agent/store/rollups.ts';

const t0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const run = (guid: string, offsetMs: number, overrides: Partial<RollupRun> = {}): RollupRun => ({
  guid,
  ranAtMs: t0 + offsetMs,
  success: true,
  skipped: false,
  latencyMs: 10,
  ...overrides,
});

describe('rollups', () => {
  it('sums runs, failures and skipped per minute and per hour, with latency figures', () => {
    const db = openDatabase(':memory:');
    const rollups = createRollups(db);
    const latencies = [5, 7, 9, 11, 13, 15, 17, 19, 21, 100];
    rollups.record(latencies.map((latencyMs, i) => run('a', i * 1000, { latencyMs })));
    rollups.record([run('a', 20_000, { success: false, latencyMs: 0 }), run('a', 21_000, { skipped: true, success: false, latencyMs: 0 })]);
    rollups.record([run('a', 61_000, { success: false, latencyMs: 30 })]);

    const minutes = rollups.series('a', 'minute', t0, t0 + 3_600_000);
    expect(minutes).toEqual([
      { startMs: t0, runs: 12, failures: 1, skipped: 1, latency: { min: 5, median: 13, p95: 100, max: 100 } },
      { startMs: t0 + 60_000, runs: 1, failures: 1, skipped: 0, latency: { min: 30, median: 30, p95: 30, max: 30 } },
    ]);
    expect(rollups.series('a', 'hour', t0, t0 + 3_600_000)).toEqual([
      { startMs: t0, runs: 13, failures: 2, skipped: 1, latency: { min: 5, median: 15, p95: 100, max: 100 } },
    ]);
    const counts = rollups.counts('a', 'minute', t0, t0 + 120_000);
    expect(counts).toEqual({ runs: 13, failures: 2, skipped: 1 });
    expect(uptimePercent(counts)).toBeCloseTo((100 * 10) / 12);
    expect(rollups.counts('nobody', 'hour', t0, t0 + 1)).toEqual({ runs: 0, failures: 0, skipped: 0 });
    expect(uptimePercent({ runs: 3, failures: 0, skipped: 3 })).toBeUndefined();
  });

  it('windows count whole buckets starting inside them, for one check or all at once', () => {
    const db = openDatabase(':memory:');
    const rollups = createRollups(db);
    for (let h = 0; h < 30; h++) rollups.record([run('a', h * 3_600_000, { success: h % 10 !== 0 }), run('b', h * 3_600_000 + 5)]);
    const now = t0 + 29 * 3_600_000 + 1;
    const day = rollups.counts('a', 'hour', now - 24 * 3_600_000, now);
    expect(day).toEqual({ runs: 24, failures: 2, skipped: 0 }); // hours 6..29: 10 and 20 failed
    const all = rollups.countsAll('hour', now - 24 * 3_600_000, now);
    expect(all.get('a')).toEqual(day);
    expect(all.get('b')).toEqual({ runs: 24, failures: 0, skipped: 0 });
  });

  it('a restart in the middle of a bucket adds to it rather than replacing it', () => {
    const db = openDatabase(':memory:');
    createRollups(db).record([run('a', 0, { latencyMs: 50 }), run('a', 1000, { latencyMs: 70 }), run('a', 2000, { success: false, latencyMs: 3 })]);
    const again = createRollups(db);
    again.record([run('a', 3000, { latencyMs: 20 })]);
    expect(again.series('a', 'minute', t0, t0 + 60_000)).toEqual([
      // min/max combine exactly; median/p95 stay the stored ones until more samples arrive.
      { startMs: t0, runs: 4, failures: 1, skipped: 0, latency: { min: 3, median: 50, p95: 70, max: 70 } },
    ]);
  });

  it('keeps minute rows a little over a day and hour rows a little over a week', () => {
    const db = openDatabase(':memory:');
    const rollups = createRollups(db);
    const day = 24 * 3_600_000;
    for (let h = 0; h < 10 * 24; h++) rollups.record([run('a', h * 3_600_000)]);
    const now = t0 + 10 * day;
    rollups.prune(now);
    const minutes = rollups.series('a', 'minute', 0, now);
    const hours = rollups.series('a', 'hour', 0, now);
    expect(minutes).toHaveLength(25);
    expect(hours).toHaveLength(8 * 24);
    expect(rollups.counts('a', 'hour', now - 7 * day, now).runs).toBe(7 * 24);
    rollups.forget('a');
    expect(rollups.series('a', 'hour', 0, now)).toEqual([]);
    expect((db.prepare('SELECT COUNT(*) AS n FROM rollups_hour').get() as { n: number }).n).toBe(0);
  });
});
