// Per-check figures per minute and per hour (runs, failures, skipped, latency min/median/p95/max),
// so uptime over 1 h / 24 h / 7 d is a sum over at most a few thousand small rows instead of a
// scan of raw results, and the latency chart reads one row per point. The open bucket of each
// check is kept in memory (its latency samples, sorted) and written as one upsert per commit;
// closed buckets are never touched again. Bounded: minute rows are kept for a little over a day,
// hour rows for a little over a week (see rollupDefaults), pruned per check along its primary key.
import type { Database } from './database.ts';

export type Resolution = 'minute' | 'hour';

export const rollupDefaults = {
  /** Minute rows cover the 1 h and 24 h windows exactly, with an hour to spare for the edge. */
  minuteRetentionMs: 25 * 3_600_000,
  /** Hour rows cover the 7 d window exactly, with a day to spare. */
  hourRetentionMs: 8 * 24 * 3_600_000,
};

const bucketMs: Record<Resolution, number> = { minute: 60_000, hour: 3_600_000 };
const tableOf: Record<Resolution, string> = { minute: 'rollups_minute', hour: 'rollups_hour' };

/** One run as the rollups need it. Latency 0 means nothing came back: not a latency sample. */
export interface RollupRun {
  guid: string;
  ranAtMs: number;
  success: boolean;
  skipped: boolean;
  latencyMs: number;
}

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

export interface Rollups {
  /** Adds runs to their buckets; call inside the caller's transaction (the result commit). */
  record(runs: readonly RollupRun[]): void;
  /** The buckets of one check that start within [fromMs, toMs), oldest first. */
  series(guid: string, resolution: Resolution, fromMs: number, toMs: number): RollupBucket[];
  /** Counts over [fromMs, toMs), at the given resolution (whole buckets). */
  counts(guid: string, resolution: Resolution, fromMs: number, toMs: number): WindowCounts;
  /** Counts of every check over [fromMs, toMs): one grouped query for a whole table. */
  countsAll(resolution: Resolution, fromMs: number, toMs: number): Map<string, WindowCounts>;
  /** Drops rows past their retention; returns how many went. */
  prune(nowMs: number): number;
  forget(guid: string): void;
}

/** Share of decided runs that passed; undefined when none was decided. */
export function uptimePercent(c: WindowCounts): number | undefined {
  const decided = c.runs - c.skipped;
  return decided <= 0 ? undefined : (100 * (decided - c.failures)) / decided;
}

/** Nearest-rank percentile of an ascending array. */
function rank(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** Inserts into an ascending array, keeping it sorted (binary search, one splice). */
function insertSorted(sorted: number[], value: number): void {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) <= value) lo = mid + 1;
    else hi = mid;
  }
  sorted.splice(lo, 0, value);
}

interface Row {
  runs: number;
  failures: number;
  skipped: number;
  lat_min: number | null;
  lat_median: number | null;
  lat_p95: number | null;
  lat_max: number | null;
  lat_count: number;
}

/** The open bucket of one check at one resolution. */
interface Open {
  bucket: number;
  /** What the row held before this process first touched it (a restart mid-bucket). */
  base: Row;
  runs: number;
  failures: number;
  skipped: number;
  samples: number[];
}

const emptyRow = (): Row => ({ runs: 0, failures: 0, skipped: 0, lat_min: null, lat_median: null, lat_p95: null, lat_max: null, lat_count: 0 });

/**
 * The row an open bucket writes. Counts add up exactly. Latency min/max combine exactly; the
 * median and p95 come from the samples of this process, unless a restart left the row with more
 * samples than it has seen since (then the stored ones stay until this process has more).
 */
function rowOf(open: Open): Row {
  const { base, samples } = open;
  const row: Row = { ...base, runs: base.runs + open.runs, failures: base.failures + open.failures, skipped: base.skipped + open.skipped, lat_count: base.lat_count + samples.length };
  if (samples.length === 0) return row;
  const min = samples[0] ?? 0;
  const max = samples.at(-1) ?? 0;
  row.lat_min = base.lat_min === null ? min : Math.min(base.lat_min, min);
  row.lat_max = base.lat_max === null ? max : Math.max(base.lat_max, max);
  if (samples.length >= base.lat_count) {
    row.lat_median = rank(samples, 50);
    row.lat_p95 = rank(samples, 95);
  }
  return row;
}

const bucketOf = (row: Row & { bucket: number }, resolution: Resolution): RollupBucket => ({
  startMs: row.bucket * bucketMs[resolution],
  runs: row.runs,
  failures: row.failures,
  skipped: row.skipped,
  ...(row.lat_min === null || row.lat_max === null
    ? {}
    : { latency: { min: row.lat_min, median: row.lat_median ?? row.lat_min, p95: row.lat_p95 ?? row.lat_max, max: row.lat_max } }),
});

export function createRollups(db: Database, options: Partial<typeof rollupDefaults> = {}): Rollups {
  const retention: Record<Resolution, number> = {
    minute: options.minuteRetentionMs ?? rollupDefaults.minuteRetentionMs,
    hour: options.hourRetentionMs ?? rollupDefaults.hourRetentionMs,
  };
  const ids = new Map<string, number>();
  const open = new Map<string, Open>();
  const resolutions: Resolution[] = ['minute', 'hour'];

  const findId = db.prepare('SELECT id FROM rollup_keys WHERE guid = ?');
  const addId = db.prepare('INSERT INTO rollup_keys (guid) VALUES (?)');
  const columns = 'bucket, runs, failures, skipped, lat_min, lat_median, lat_p95, lat_max, lat_count';
  const sql = (r: Resolution) => ({
    read: db.prepare(`SELECT ${columns} FROM ${tableOf[r]} WHERE check_id = ? AND bucket = ?`),
    write: db.prepare(`INSERT OR REPLACE INTO ${tableOf[r]} (check_id, ${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    range: db.prepare(`SELECT ${columns} FROM ${tableOf[r]} WHERE check_id = ? AND bucket >= ? AND bucket < ? ORDER BY bucket`),
    sum: db.prepare(`SELECT COALESCE(SUM(runs), 0) AS runs, COALESCE(SUM(failures), 0) AS failures, COALESCE(SUM(skipped), 0) AS skipped
      FROM ${tableOf[r]} WHERE check_id = ? AND bucket >= ? AND bucket < ?`),
    sumAll: db.prepare(`SELECT k.guid AS guid, SUM(runs) AS runs, SUM(failures) AS failures, SUM(skipped) AS skipped
      FROM ${tableOf[r]} r JOIN rollup_keys k ON k.id = r.check_id WHERE bucket >= ? AND bucket < ? GROUP BY r.check_id`),
    prune: db.prepare(`DELETE FROM ${tableOf[r]} WHERE check_id = ? AND bucket < ?`),
    forget: db.prepare(`DELETE FROM ${tableOf[r]} WHERE check_id = ?`),
  });
  const statements = { minute: sql('minute'), hour: sql('hour') };

  const idOf = (guid: string, create: boolean): number | undefined => {
    let id = ids.get(guid);
    if (id !== undefined) return id;
    id = (findId.get(guid) as { id: number } | undefined)?.id;
    if (id === undefined && create) id = Number(addId.run(guid).lastInsertRowid);
    if (id !== undefined) ids.set(guid, id);
    return id;
  };
  const bucketIndex = (ms: number, r: Resolution): number => Math.floor(ms / bucketMs[r]);
  const range = (r: Resolution, fromMs: number, toMs: number): [number, number] => [Math.ceil(fromMs / bucketMs[r]), Math.ceil(toMs / bucketMs[r])];

  return {
    record(runs) {
      const dirty = new Map<string, { id: number; r: Resolution; open: Open }>();
      for (const run of runs) {
        const id = idOf(run.guid, true) ?? 0;
        for (const r of resolutions) {
          const key = `${r}:${run.guid}`;
          const bucket = bucketIndex(run.ranAtMs, r);
          let acc = open.get(key);
          if (acc === undefined || acc.bucket !== bucket) {
            // The next bucket after one this process wrote cannot have a row yet; anything else
            // (first run since start, a late run, a clock that went back) starts from the row.
            const stored = acc !== undefined && bucket > acc.bucket ? undefined : (statements[r].read.get(id, bucket) as Row | undefined);
            acc = { bucket, base: stored ?? emptyRow(), runs: 0, failures: 0, skipped: 0, samples: [] };
            open.set(key, acc);
          }
          acc.runs += 1;
          if (run.skipped) acc.skipped += 1;
          else if (!run.success) acc.failures += 1;
          if (!run.skipped && run.latencyMs > 0) insertSorted(acc.samples, run.latencyMs);
          dirty.set(`${key}:${bucket}`, { id, r, open: acc });
        }
      }
      for (const { id, r, open: acc } of dirty.values()) {
        const row = rowOf(acc);
        statements[r].write.run(id, acc.bucket, row.runs, row.failures, row.skipped, row.lat_min, row.lat_median, row.lat_p95, row.lat_max, row.lat_count);
      }
    },
    series(guid, resolution, fromMs, toMs) {
      const id = idOf(guid, false);
      if (id === undefined) return [];
      const rows = statements[resolution].range.all(id, ...range(resolution, fromMs, toMs)) as unknown as (Row & { bucket: number })[];
      return rows.map((row) => bucketOf(row, resolution));
    },
    counts(guid, resolution, fromMs, toMs) {
      const id = idOf(guid, false);
      if (id === undefined) return { runs: 0, failures: 0, skipped: 0 };
      return { ...(statements[resolution].sum.get(id, ...range(resolution, fromMs, toMs)) as unknown as WindowCounts) };
    },
    countsAll(resolution, fromMs, toMs) {
      const rows = statements[resolution].sumAll.all(...range(resolution, fromMs, toMs)) as unknown as (WindowCounts & { guid: string })[];
      return new Map(rows.map(({ guid, ...c }) => [guid, c]));
    },
    prune(nowMs) {
      let removed = 0;
      const keys = db.prepare('SELECT id FROM rollup_keys').all() as { id: number }[];
      for (const r of resolutions) {
        const before = bucketIndex(nowMs - retention[r], r);
        for (const { id } of keys) removed += Number(statements[r].prune.run(id, before).changes);
      }
      return removed;
    },
    forget(guid) {
      const id = idOf(guid, false);
      for (const r of resolutions) open.delete(`${r}:${guid}`);
      if (id === undefined) return;
      for (const r of resolutions) statements[r].forget.run(id);
      db.prepare('DELETE FROM rollup_keys WHERE id = ?').run(id);
      ids.delete(guid);
    },
  };
}
