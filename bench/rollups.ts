// npm run bench:rollups — what the 1 h / 24 h / 7 d figures cost at 5,000 checks (BENCH_CHECKS):
// a store filled with a full day of minute rows and eight days of hour rows per check (as a 60 s
// interval leaves them), then the queries the window makes; then what recording costs per run and
// what the open buckets hold in memory over an hour of 1 s runs. Prints figures; asserts nothing.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, transaction } from '../src-main/agent/store/database.ts';
import { exposedGc } from '../src-main/agent/base/heap-release.ts';
import { insightDefaults } from '../src-main/agent/read/check-insight.ts';
import { createRollups, type RollupRun } from '../src-main/agent/store/rollups.ts';
import { fixed, percentile, printTable } from './support.ts';
import { seededRandom } from '../test/support/seeded-random.ts';

const checks = Number(process.env.BENCH_CHECKS ?? '5000');
const dir = mkdtempSync(join(tmpdir(), 'bench-rollups-'));
const file = join(dir, 'agent.db');
const db = openDatabase(file);
const rollups = createRollups(db);
const now = Date.UTC(2026, 10, 21, 12, 0, 0);
const minute = now / 60_000;
const hour = now / 3_600_000;

// The bulk of the rows goes in with plain SQL (a day of record() calls would take a day); the
// rows have the shape record() writes, and record() itself is timed below.
const fillStart = performance.now();
transaction(db, () => {
  const key = db.prepare('INSERT INTO check_keys (id, guid) VALUES (?, ?)');
  for (let i = 1; i <= checks; i++) key.run(i, `check-${i}`);
  db.exec(`
    WITH RECURSIVE m(b) AS (SELECT ${minute - 1440} UNION ALL SELECT b + 1 FROM m WHERE b < ${minute - 1})
    INSERT INTO rollups_minute SELECT k.id, m.b, 1, (m.b % 97 = 0), 0, 12, 12, 12, 12, 1 FROM check_keys k, m;
    WITH RECURSIVE h(b) AS (SELECT ${hour - 192} UNION ALL SELECT b + 1 FROM h WHERE b < ${hour - 1})
    INSERT INTO rollups_hour SELECT k.id, h.b, 60, (h.b % 5), 0, 9, 12, 20, 80, 60 FROM check_keys k, h;`);
});
const fillMs = performance.now() - fillStart;

function time(label: string, repeat: number, fn: (i: number) => unknown): Record<string, string | number> {
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return {
    query: label,
    runs: repeat,
    'median ms': fixed(percentile(samples, 50), 3),
    'p95 ms': fixed(percentile(samples, 95), 3),
  };
}

const guid = (i: number): string => `check-${(i % checks) + 1}`;
const day = 86_400_000;
const rows = [
  time('uptime 1 h, one check (minute rows)', 200, (i) => rollups.counts(guid(i), 'minute', now - 3_600_000, now)),
  time('uptime 24 h, one check (minute rows)', 200, (i) => rollups.counts(guid(i), 'minute', now - day, now)),
  time('uptime 7 d, one check (hour rows)', 200, (i) => rollups.counts(guid(i), 'hour', now - 7 * day, now)),
  time('chart 24 h, one check (1,440 points)', 100, (i) => rollups.series(guid(i), 'minute', now - day, now)),
  time('chart 7 d, one check (168 points)', 200, (i) => rollups.series(guid(i), 'hour', now - 7 * day, now)),
  time(`uptime 24 h, all ${checks} checks (hour rows)`, 5, () => rollups.countsAll('hour', now - day, now)),
  time(`uptime 7 d, all ${checks} checks (hour rows)`, 5, () => rollups.countsAll('hour', now - 7 * day, now)),
];
printTable(`Rollup queries at ${checks} checks (filled in ${fixed(fillMs / 1000)} s)`, rows);

// record() + flush(): one commit of 500 runs (a full result batch) into the open buckets, then
// written at once: the cost per run of a check whose interval is longer than the flush period
// (each run leaves its two buckets to write).
const batch = (b: number): RollupRun[] =>
  Array.from({ length: 500 }, (_, i) => ({
    guid: guid(b * 500 + i),
    ranAtMs: now + b * 10,
    success: i % 50 !== 0,
    skipped: false,
    latencyMs: 5 + (i % 40),
  }));
const recordAndFlush = (runs: RollupRun[]): void => {
  transaction(db, () => rollups.record(runs));
  rollups.flush();
};
const first = time('record() + flush() 500 runs, first run of each check since start', 10, (b) =>
  recordAndFlush(batch(b)),
);
// Steady state: every check's next run lands in its next minute bucket (60 s interval).
const next = (b: number): RollupRun[] => batch(b).map((r) => ({ ...r, ranAtMs: r.ranAtMs + 60_000 }));
const steady = time('record() + flush() 500 runs, steady state (next minute)', 10, (b) => recordAndFlush(next(b)));
printTable('Recording (per run: divide by 500)', [first, steady]);
const pruneStart = performance.now();
const pruned = rollups.prune(now + day);
printTable('Size and pruning', [
  {
    'minute rows': (db.prepare('SELECT COUNT(*) AS n FROM rollups_minute').get() as { n: number }).n,
    'hour rows': (db.prepare('SELECT COUNT(*) AS n FROM rollups_hour').get() as { n: number }).n,
    'db MB (before prune)': fixed(statSync(file).size / 1024 / 1024),
    'prune one day later ms': fixed(performance.now() - pruneStart),
    'rows pruned': pruned,
  },
]);
db.close();

// An hour of 1 s runs at 1,000 checks (BENCH_OPEN_CHECKS, BENCH_OPEN_SECONDS): what recording
// costs per run as the agent does it (batches committed like the result sink's, a flush every
// 10 s as check-insight.ts does), how long one flush holds the event loop, and how much memory
// (JS heap and array buffers) the open buckets hold at the end of the hour, when each check's
// hour bucket is full.
const gc = exposedGc();
const heapMb = (): number => {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 1024 / 1024;
};

const openChecks = Number(process.env.BENCH_OPEN_CHECKS ?? '1000');
const seconds = Number(process.env.BENCH_OPEN_SECONDS ?? '3600');
const openDb = openDatabase(join(dir, 'open.db'));
const heapBefore = heapMb();
const openRollups = createRollups(openDb);
/** The same latencies for every run of the bench. */
const random = seededRandom(14);
/** Per check a typical latency (5-300 ms) with log-normal spread, 1 % slow outliers, 1 % failures with nothing back. */
const typical = Array.from({ length: openChecks }, () => 5 + Math.floor(random() * 295));
const latencyOf = (check: number): number => {
  const r = random();
  if (r < 0.01) return 0;
  const spread = Math.exp((random() + random() + random() - 1.5) * 0.6);
  return Math.max(1, Math.round((typical[check] ?? 10) * spread * (r > 0.99 ? 10 : 1)));
};
// Starts at an hour boundary, so that after the last second every hour bucket is full.
const start = Math.ceil(now / 3_600_000) * 3_600_000;
const commitSize = 100;
const flushEvery = insightDefaults.rollupFlushMs / 1000;
let recordMs = 0;
const flushes: number[] = [];
let written = 0;
const runsTotal = openChecks * seconds;
for (let s = 0; s < seconds; s++) {
  // In slices, as check-insight.ts writes them (one after the other on the next turns).
  for (let left = s % flushEvery === 0 ? 1 : 0; left > 0;) {
    const t = performance.now();
    const outcome = openRollups.flush(insightDefaults.rollupFlushSlice);
    flushes.push(performance.now() - t);
    left = outcome.ok ? outcome.left : 0;
    if (outcome.ok) written += outcome.written;
  }
  for (let first = 0; first < openChecks; first += commitSize) {
    const runs: RollupRun[] = [];
    for (let c = first; c < Math.min(openChecks, first + commitSize); c++) {
      const latencyMs = latencyOf(c);
      runs.push({
        guid: `check-${c}`,
        ranAtMs: start + s * 1000 + c,
        success: latencyMs > 0,
        skipped: false,
        latencyMs,
      });
    }
    const t = performance.now();
    transaction(openDb, () => openRollups.record(runs));
    recordMs += performance.now() - t;
  }
}
const heapAfter = heapMb();
const flushMs = flushes.reduce((a, b) => a + b, 0);
flushes.sort((a, b) => a - b);
const held = openRollups.held();
printTable(
  `An hour of 1 s runs at ${openChecks} checks (${seconds} s simulated, commits of ${commitSize}, a flush every ${flushEvery} s in slices of ${insightDefaults.rollupFlushSlice} rows)`,
  [
    {
      runs: runsTotal,
      'ms per run (record + flush)': fixed((recordMs + flushMs) / runsTotal, 4),
      'record ms per run': fixed(recordMs / runsTotal, 4),
      'rows written per run': fixed(written / runsTotal, 3),
      'flush slices': flushes.length,
      'slice median ms': fixed(percentile(flushes, 50), 2),
      'slice p99 ms': fixed(percentile(flushes, 99), 2),
      'slice max ms': fixed(flushes.at(-1) ?? 0, 2),
    },
  ],
);
printTable('Memory of the open buckets after the hour', [
  {
    'heap + array buffers MB': fixed(heapAfter - heapBefore),
    'per check KB': fixed(((heapAfter - heapBefore) * 1024) / openChecks, 2),
    'open buckets': held.open,
    'latency counters KB': fixed(held.latencyBytes / 1024),
  },
]);
openDb.close();
