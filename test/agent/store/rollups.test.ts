import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src-main/agent/store/database.ts';
import { latencySlots } from '../../../src-main/agent/store/latency-histogram.ts';
import { createRollups, uptimePercent, type RollupRun, type Rollups } from '../../../src-main/agent/store/rollups.ts';
import { tempDir, type TempDir } from '../../support/temp-dir.ts';
import { seededRandom } from '../../support/seeded-random.ts';

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
    rollups.record([
      run('a', 20_000, { success: false, latencyMs: 0 }),
      run('a', 21_000, { skipped: true, success: false, latencyMs: 0 }),
    ]);
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
    for (let h = 0; h < 30; h++)
      rollups.record([run('a', h * 3_600_000, { success: h % 10 !== 0 }), run('b', h * 3_600_000 + 5)]);
    const now = t0 + 29 * 3_600_000 + 1;
    const day = rollups.counts('a', 'hour', now - 24 * 3_600_000, now);
    expect(day).toEqual({ runs: 24, failures: 2, skipped: 0 }); // hours 6..29: 10 and 20 failed
    const all = rollups.countsAll('hour', now - 24 * 3_600_000, now);
    expect(all.get('a')).toEqual(day);
    expect(all.get('b')).toEqual({ runs: 24, failures: 0, skipped: 0 });
  });

  it('a restart in the middle of a bucket adds to it rather than replacing it', () => {
    const db = openDatabase(':memory:');
    const before = createRollups(db);
    before.record([
      run('a', 0, { latencyMs: 50 }),
      run('a', 1000, { latencyMs: 70 }),
      run('a', 2000, { success: false, latencyMs: 3 }),
    ]);
    // The process that recorded them stopped, which flushes (check-insight.ts).
    before.flush();
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

// The rollups as the agent keeps them: in memory per run, written by flushes, on real files.
describe('rollups in memory, written by flushes', () => {
  let dir: TempDir;
  const open: Database[] = [];
  beforeEach(async () => {
    dir = await tempDir('rollups-test-');
  });
  afterEach(async () => {
    for (const db of open.splice(0)) db.close();
    await dir.remove();
  });
  const store = (): Database => {
    const db = openDatabase(join(dir.path, 'agent.db'));
    open.push(db);
    return db;
  };
  /** Rows as another connection (another process, after a crash) sees them. */
  const stored = (table: 'rollups_minute' | 'rollups_hour'): { runs: number }[] => {
    const reader = store();
    return reader.prepare(`SELECT runs FROM ${table} ORDER BY bucket`).all() as { runs: number }[];
  };

  it('record() only updates memory; a read writes what it covers first and is exact', () => {
    const rollups = createRollups(store());
    rollups.record([
      run('a', 0),
      run('a', 1000, { success: false }),
      run('b', 2000),
      run('a', 61_000, { skipped: true, latencyMs: 0 }),
    ]);
    expect(stored('rollups_minute')).toEqual([]);
    expect(rollups.held().unwritten).toBe(3 + 2); // a: minute 0, minute 1, hour; b: minute, hour

    expect(rollups.counts('a', 'minute', t0, t0 + 120_000)).toEqual({ runs: 3, failures: 1, skipped: 1 });
    // Only check a's buckets were written by that read.
    expect(stored('rollups_minute')).toEqual([{ runs: 2 }, { runs: 1 }]);
    expect(rollups.held().unwritten).toBe(2);
    expect(rollups.countsAll('hour', t0, t0 + 3_600_000)).toEqual(
      new Map([
        ['a', { runs: 3, failures: 1, skipped: 1 }],
        ['b', { runs: 1, failures: 0, skipped: 0 }],
      ]),
    );
    expect(rollups.held().unwritten).toBe(0);

    rollups.record([run('a', 62_000, { latencyMs: 40 })]);
    expect(rollups.series('a', 'minute', t0, t0 + 120_000)[1]).toEqual({
      startMs: t0 + 60_000,
      runs: 2,
      failures: 0,
      skipped: 1,
      latency: { min: 40, median: 40, p95: 40, max: 40 },
    });
  });

  it('an hour of 1 s runs holds a fixed-size structure per check, the same size every hour', () => {
    const rollups = createRollups(store());
    const heldAt: ReturnType<Rollups['held']>[] = [];
    const random = seededRandom(1);
    for (let s = 0; s < 3 * 3600; s++) {
      // a: latencies from 1 ms to 20 s, so every part of the histogram is used; b: always 20 ms.
      rollups.record([
        run('a', s * 1000, { latencyMs: 1 + Math.floor(random() ** 3 * 20_000) }),
        run('b', s * 1000 + 500, { latencyMs: 20 }),
      ]);
      if (s % 10 === 9) expect(rollups.flush().ok).toBe(true);
      if (s % 3600 === 3599) heldAt.push(rollups.held());
    }
    // a's latencies span the whole histogram: all 448 slots, one byte each, in both its buckets. b's
    // one latency needs the first stretch only: 16 counters, two bytes each in its hour (3,600
    // runs in one slot).
    expect(heldAt[0]).toEqual({ open: 4, unwritten: 0, latencyBytes: 2 * latencySlots + 16 + 2 * 16 });
    expect(heldAt[1]).toEqual(heldAt[0]);
    expect(heldAt[2]).toEqual(heldAt[0]);
    expect(rollups.series('a', 'hour', t0, t0 + 3 * 3_600_000).map((b) => b.runs)).toEqual([3600, 3600, 3600]);
    expect(rollups.series('b', 'hour', t0, t0 + 3 * 3_600_000).map((b) => b.latency)).toEqual(
      Array(3).fill({ min: 20, median: 20, p95: 20, max: 20 }),
    );
    expect(rollups.series('a', 'minute', t0, t0 + 3 * 3_600_000)).toHaveLength(180);
  });

  const distributions: { name: string; sample: (random: () => number) => number }[] = [
    { name: 'uniform 1-127 ms (exact)', sample: (r) => 1 + Math.floor(r() * 127) },
    { name: 'uniform 1-10,000 ms', sample: (r) => 1 + Math.floor(r() * 10_000) },
    {
      name: 'log-normal around 250 ms',
      sample: (r) => Math.max(1, Math.round(250 * Math.exp((r() + r() + r() - 1.5) * 1.2))),
    },
    {
      name: 'two modes: 90 % near 20 ms, 10 % near 3 s',
      sample: (r) => (r() < 0.9 ? 15 + Math.floor(r() * 10) : 2500 + Math.floor(r() * 1000)),
    },
    { name: 'heavy tail up to 60 s', sample: (r) => Math.min(60_000, Math.ceil(100 / Math.max(r(), 0.0016))) },
    { name: 'constant 777 ms', sample: () => 777 },
  ];
  it.each(distributions)(
    'median and p95 within 1/64 of the exact figures, min and max exact: $name',
    ({ name, sample }) => {
      const rollups = createRollups(store());
      const random = seededRandom(name.length);
      const latencies = Array.from({ length: 997 }, () => sample(random));
      // All in one minute: 997 runs 60 ms apart.
      rollups.record(latencies.map((latencyMs, i) => run('a', i * 60, { latencyMs })));
      const sorted = [...latencies].sort((a, b) => a - b);
      const exact = (p: number): number => sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? 0;
      for (const resolution of ['minute', 'hour'] as const) {
        const latency = rollups.series('a', resolution, t0, t0 + 3_600_000)[0]?.latency;
        expect(latency?.min).toBe(sorted[0]);
        expect(latency?.max).toBe(sorted.at(-1));
        for (const [p, got] of [
          [50, latency?.median ?? -1],
          [95, latency?.p95 ?? -1],
        ] as const) {
          const want = exact(p);
          if (want < 128) expect(got).toBe(want);
          else expect(Math.abs(got - want)).toBeLessThanOrEqual(want / 64);
        }
      }
    },
  );

  it('a restart mid-bucket adds to the row the stopped process flushed; a crash loses only what was not flushed yet', () => {
    const first = createRollups(store());
    first.record(Array.from({ length: 20 }, (_, i) => run('a', i * 1000, { latencyMs: 60 + i, success: i !== 0 })));
    expect(first.flush()).toEqual({ ok: true, written: 2, left: 0 });
    // Recorded after the last flush, then the process dies: lost (the results are in the outbox).
    first.record([run('a', 20_000, { latencyMs: 1 })]);

    const second = createRollups(store());
    second.record(Array.from({ length: 30 }, (_, i) => run('a', 21_000 + i * 1000, { latencyMs: 90 + i })));
    // Counts add; min and max combine exactly; median and p95 are the larger stretch's (30 > 20):
    // ranks 15 and 29 of 90..119 (all below 128 ms, so exact).
    const want = { runs: 50, failures: 1, skipped: 0, latency: { min: 60, median: 104, p95: 118, max: 119 } };
    expect(second.series('a', 'minute', t0, t0 + 60_000)).toEqual([{ startMs: t0, ...want }]);
    expect(second.series('a', 'hour', t0, t0 + 3_600_000)).toEqual([{ startMs: t0, ...want }]);
    expect(second.flush()).toEqual({ ok: true, written: 0, left: 0 });

    // Once more, with the stored stretch the larger one: its median and p95 stay.
    const third = createRollups(store());
    third.record([run('a', 55_000, { latencyMs: 5 })]);
    expect(third.series('a', 'minute', t0, t0 + 60_000)).toEqual([
      { startMs: t0, ...want, runs: 51, latency: { ...want.latency, min: 5 } },
    ]);
  });

  it('the clock going back to a bucket already left adds to it, written or not', () => {
    const rollups = createRollups(store());
    rollups.record([
      run('a', 0, { latencyMs: 10 }),
      run('a', 60_000, { latencyMs: 20 }),
      run('a', 1000, { latencyMs: 30 }),
    ]);
    expect(
      rollups.series('a', 'minute', t0, t0 + 120_000).map((b) => [b.runs, b.latency?.min, b.latency?.max]),
    ).toEqual([
      [2, 10, 30],
      [1, 20, 20],
    ]);
    rollups.record([run('a', 61_000, { latencyMs: 40 }), run('a', 2000, { latencyMs: 5 })]);
    expect(
      rollups.series('a', 'minute', t0, t0 + 120_000).map((b) => [b.runs, b.latency?.min, b.latency?.max]),
    ).toEqual([
      [3, 5, 30],
      [2, 20, 40],
    ]);
    expect(rollups.counts('a', 'hour', t0, t0 + 3_600_000).runs).toBe(5);
  });

  it('a flush can be cut in slices, the buckets left behind by their minute first', () => {
    const rollups = createRollups(store());
    rollups.record([run('a', 0), run('b', 0), run('a', 60_000)]);
    // a's minute 0 (left behind), then a's and b's open minute and hour buckets.
    expect(rollups.flush(2)).toEqual({ ok: true, written: 2, left: 3 });
    expect(stored('rollups_minute')).toEqual([{ runs: 1 }, { runs: 1 }]);
    expect(rollups.flush(2)).toEqual({ ok: true, written: 2, left: 1 });
    expect(rollups.flush(2)).toEqual({ ok: true, written: 1, left: 0 });
    expect(rollups.countsAll('minute', t0, t0 + 120_000)).toEqual(
      new Map([
        ['a', { runs: 2, failures: 0, skipped: 0 }],
        ['b', { runs: 1, failures: 0, skipped: 0 }],
      ]),
    );
  });

  it('a flush the store refuses keeps every figure in memory, bounded, and the retry counts each run once', () => {
    const db = store();
    const rollups = createRollups(db, { maxUnwritten: 3 });
    rollups.record([run('a', 0), run('a', 1000)]);
    expect(rollups.flush().ok).toBe(true);
    // Writes are refused from here on (a real SQLite refusal, like a full disk's).
    db.exec('PRAGMA query_only = ON');
    rollups.record([run('a', 2000, { success: false })]);
    const refused = rollups.flush();
    expect(refused.ok).toBe(false);
    expect(String(refused.ok ? '' : refused.error)).toContain('readonly');
    expect(rollups.flush().ok).toBe(false);
    expect(rollups.held().unwritten).toBe(2);
    // Six more minutes go by: the minute buckets left behind wait, the oldest beyond the bound go.
    for (let m = 1; m <= 6; m++) rollups.record([run('a', m * 60_000)]);
    expect(rollups.held().unwritten).toBe(3 + 2);
    // A read while writes are refused shows what is stored.
    expect(rollups.counts('a', 'hour', t0, t0 + 3_600_000).runs).toBe(2);

    db.exec('PRAGMA query_only = OFF');
    expect(rollups.flush()).toEqual({ ok: true, written: 5, left: 0 });
    // Minutes 0-2 were dropped from memory beyond the bound; the hour bucket has every run, once.
    expect(rollups.series('a', 'minute', t0, t0 + 3_600_000).map((b) => [b.startMs - t0, b.runs])).toEqual([
      [0, 2],
      [180_000, 1],
      [240_000, 1],
      [300_000, 1],
      [360_000, 1],
    ]);
    expect(rollups.counts('a', 'hour', t0, t0 + 3_600_000)).toEqual({ runs: 9, failures: 1, skipped: 0 });
    expect(rollups.flush()).toEqual({ ok: true, written: 0, left: 0 });
  });
});
