// Per-check figures per minute and per hour (runs, failures, skipped, latency min/median/p95/max),
// so uptime over 1 h / 24 h / 7 d is a sum over at most a few thousand small rows instead of a
// scan of raw results, and the latency chart reads one row per point. Bounded on disk: minute rows
// are kept for a little over a day, hour rows for a little over a week (see rollupDefaults),
// pruned per check along its primary key.
//
// Recording costs almost nothing per run: record() only adds to the open buckets in memory
// (rollup-buckets.ts: flat memory, latencies in a fixed-size histogram) and runs no SQL, so it
// can never fail the result commit it is called from. flush() writes the buckets with unwritten
// runs in a transaction of its own; check-insight.ts flushes every few seconds and when the agent
// stops, and a bucket left behind (its minute or hour is over) waits in memory for that flush.
// Every read first writes the buckets it covers, so what it returns is exact. A crash loses the
// runs recorded since the last flush (seconds of counts; the results themselves are safe in the
// outbox and the history). A flush the store refuses (a full disk) changes nothing in memory and
// is done again later: rows are written whole (the row as it was before this process + all this
// process recorded of the bucket), so a retried write never counts a run twice.
//
// Precision: counts, min and max are exact; median and p95 are exact up to 127 ms and within
// 1.6 % above (latency-histogram.ts); how stretches of one bucket combine: rollup-buckets.ts.
import { checkKeys, withGuids } from './check-keys.ts';
import { transaction, type Database } from './database.ts';
import {
  bucketMs,
  combine,
  createOpenBuckets,
  noRow,
  resolutions,
  type Resolution,
  type RollupRun,
  type Row,
  type Unwritten,
} from './rollup-buckets.ts';

export type { Resolution, RollupRun } from './rollup-buckets.ts';
export { bucketMs } from './rollup-buckets.ts';

export const rollupDefaults = {
  /** Minute rows cover the 1 h and 24 h windows exactly, with an hour to spare for the edge. */
  minuteRetentionMs: 25 * 3_600_000,
  /** Hour rows cover the 7 d window exactly, with a day to spare. */
  hourRetentionMs: 8 * 24 * 3_600_000,
  /**
   * Left-behind buckets kept in memory while the store refuses writes (a full disk): about 20
   * minutes of 1,000 checks' minute buckets, ~2 MB. Beyond it the oldest go, as results waiting
   * in memory do (results/result-sink.ts): memory stays bounded however long the disk is full.
   */
  maxUnwritten: 20_000,
};

const tableOf: Record<Resolution, string> = { minute: 'rollups_minute', hour: 'rollups_hour' };

export interface LatencyFigures {
  min: number;
  median: number;
  p95: number;
  max: number;
}

export interface RollupBucket {
  /** Start of the bucket, ms since the epoch. */
  startMs: number;
  /** Every run, skipped ones included. */
  runs: number;
  /** Runs that failed (skipped runs are not failures). */
  failures: number;
  /** Runs kept locally as skipped (offline): neither up nor down. */
  skipped: number;
  /** Over the runs where something came back; absent when none did. */
  latency?: LatencyFigures;
}

export interface WindowCounts {
  runs: number;
  failures: number;
  skipped: number;
}

/** A flush: how many buckets were written and how many are left, or the store's error (then all of them wait for the next). */
export type FlushOutcome = { ok: true; written: number; left: number } | { ok: false; error: unknown };

export interface Rollups {
  /** Adds runs to their buckets, in memory only: no SQL, so it cannot fail the caller's commit. */
  record(runs: readonly RollupRun[]): void;
  /**
   * Writes the buckets with unwritten runs (at most `limit` of them: one transaction holds the
   * event loop for as long as it writes), in a transaction of its own; those left behind by their
   * minute or hour first.
   */
  flush(limit?: number): FlushOutcome;
  /** The buckets of one check that start within [fromMs, toMs), oldest first. */
  series(guid: string, resolution: Resolution, fromMs: number, toMs: number): RollupBucket[];
  /** Counts over [fromMs, toMs), at the given resolution (whole buckets). */
  counts(guid: string, resolution: Resolution, fromMs: number, toMs: number): WindowCounts;
  /** Counts of every check over [fromMs, toMs): one grouped query for a whole table. */
  countsAll(resolution: Resolution, fromMs: number, toMs: number): Map<string, WindowCounts>;
  /** Writes what is unwritten, then drops rows past their retention; returns how many went. Throws the store's error. */
  prune(nowMs: number): number;
  forget(guid: string): void;
  /** What is held in memory: open buckets, buckets with unwritten runs, bytes of latency counters. */
  held(): { open: number; unwritten: number; latencyBytes: number };
}

/** Share of decided runs that passed; undefined when none was decided. */
export function uptimePercent(c: WindowCounts): number | undefined {
  const decided = c.runs - c.skipped;
  return decided <= 0 ? undefined : (100 * (decided - c.failures)) / decided;
}

const bucketOf = (row: Row & { bucket: number }, resolution: Resolution): RollupBucket => ({
  startMs: row.bucket * bucketMs[resolution],
  runs: row.runs,
  failures: row.failures,
  skipped: row.skipped,
  ...(row.lat_min === null || row.lat_max === null
    ? {}
    : {
        latency: {
          min: row.lat_min,
          median: row.lat_median ?? row.lat_min,
          p95: row.lat_p95 ?? row.lat_max,
          max: row.lat_max,
        },
      }),
});

export function createRollups(db: Database, options: Partial<typeof rollupDefaults> = {}): Rollups {
  const settings = { ...rollupDefaults, ...options };
  const retention: Record<Resolution, number> = { minute: settings.minuteRetentionMs, hour: settings.hourRetentionMs };
  const buckets = createOpenBuckets(settings.maxUnwritten);
  const keys = checkKeys(db);
  const figures = 'runs, failures, skipped, lat_min, lat_median, lat_p95, lat_max, lat_count';
  const sql = (r: Resolution) => ({
    read: db.prepare(`SELECT ${figures} FROM ${tableOf[r]} WHERE check_id = ? AND bucket = ?`),
    write: db.prepare(
      `INSERT OR REPLACE INTO ${tableOf[r]} (check_id, bucket, ${figures}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    range: db.prepare(
      `SELECT bucket, ${figures} FROM ${tableOf[r]} WHERE check_id = ? AND bucket >= ? AND bucket < ? ORDER BY bucket`,
    ),
    sum: db.prepare(`SELECT COALESCE(SUM(runs), 0) AS runs, COALESCE(SUM(failures), 0) AS failures, COALESCE(SUM(skipped), 0) AS skipped
      FROM ${tableOf[r]} WHERE check_id = ? AND bucket >= ? AND bucket < ?`),
    sumAll: db.prepare(`SELECT k.guid AS guid, SUM(runs) AS runs, SUM(failures) AS failures, SUM(skipped) AS skipped
      FROM ${withGuids(tableOf[r])} WHERE bucket >= ? AND bucket < ? GROUP BY check_id`),
    prune: db.prepare(`DELETE FROM ${tableOf[r]} WHERE check_id = ? AND bucket < ?`),
    forget: db.prepare(`DELETE FROM ${tableOf[r]} WHERE check_id = ?`),
  });
  const statements = { minute: sql('minute'), hour: sql('hour') };

  const range = (r: Resolution, fromMs: number, toMs: number): [number, number] => [
    Math.ceil(fromMs / bucketMs[r]),
    Math.ceil(toMs / bucketMs[r]),
  ];

  /**
   * Writes the buckets whole, then runs `inside` in the same transaction (a read there sees them
   * even if the commit then fails). They count as written only once committed (the check keys a
   * failed transaction made are forgotten with it: check-keys.ts).
   */
  function write(unwritten: readonly Unwritten[], inside?: () => void): FlushOutcome {
    if (unwritten.length === 0 && inside === undefined) return { ok: true, written: 0, left: 0 };
    try {
      transaction(db, () => {
        for (const u of unwritten) {
          const id = keys.keyOf(u.guid);
          const st = statements[u.resolution];
          // Read before this process's first write, so what a rolled-back write put there is never read.
          u.base ??= (st.read.get(id, u.bucket) as Row | undefined) ?? noRow;
          const row = combine(u.base, buckets.own(u));
          st.write.run(
            id,
            u.bucket,
            row.runs,
            row.failures,
            row.skipped,
            row.lat_min,
            row.lat_median,
            row.lat_p95,
            row.lat_max,
            row.lat_count,
          );
        }
        inside?.();
      });
    } catch (error) {
      return { ok: false, error };
    }
    buckets.written(unwritten);
    return { ok: true, written: unwritten.length, left: 0 };
  }

  /** A read after writing the buckets it covers; if the store refuses the write, the read still saw them. */
  function exact<T>(unwritten: readonly Unwritten[], query: () => T): T {
    // Inside a caller's transaction a write would stand or fall with it, unseen here: read as stored.
    if (unwritten.length === 0 || db.isTransaction) return query();
    let answer: { value: T } | undefined;
    write(unwritten, () => (answer = { value: query() }));
    return answer === undefined ? query() : answer.value;
  }

  return {
    record: (runs) => buckets.record(runs),
    flush(limit = Number.POSITIVE_INFINITY) {
      const unwritten = buckets.unwritten();
      if (unwritten.length <= limit) return write(unwritten);
      const outcome = write(unwritten.slice(0, limit));
      return outcome.ok ? { ...outcome, left: unwritten.length - limit } : outcome;
    },
    series(guid, resolution, fromMs, toMs) {
      return exact(buckets.unwritten(guid), () => {
        const id = keys.knownKey(guid);
        if (id === undefined) return [];
        const rows = statements[resolution].range.all(id, ...range(resolution, fromMs, toMs)) as unknown as (Row & {
          bucket: number;
        })[];
        return rows.map((row) => bucketOf(row, resolution));
      });
    },
    counts(guid, resolution, fromMs, toMs) {
      return exact(buckets.unwritten(guid), () => {
        const id = keys.knownKey(guid);
        if (id === undefined) return { runs: 0, failures: 0, skipped: 0 };
        return {
          ...(statements[resolution].sum.get(id, ...range(resolution, fromMs, toMs)) as unknown as WindowCounts),
        };
      });
    },
    countsAll(resolution, fromMs, toMs) {
      return exact(buckets.unwritten(), () => {
        const rows = statements[resolution].sumAll.all(
          ...range(resolution, fromMs, toMs),
        ) as unknown as (WindowCounts & { guid: string })[];
        return new Map(rows.map(({ guid, ...c }) => [guid, c]));
      });
    },
    prune(nowMs) {
      const drop = (): number => {
        let removed = 0;
        const all = db.prepare('SELECT id FROM check_keys').all() as { id: number }[];
        for (const r of resolutions) {
          const before = Math.floor((nowMs - retention[r]) / bucketMs[r]);
          for (const { id } of all) removed += Number(statements[r].prune.run(id, before).changes);
        }
        return removed;
      };
      // Unwritten buckets first, so that none is written back after its rows were dropped.
      const written = write(buckets.unwritten());
      if (!written.ok) throw written.error;
      return transaction(db, drop);
    },
    forget(guid) {
      buckets.forget(guid);
      const id = keys.knownKey(guid);
      if (id === undefined) return;
      // The key stays (check-keys.ts): the history may not have dropped its rows yet.
      for (const r of resolutions) statements[r].forget.run(id);
    },
    held: () => buckets.held(),
  };
}
