// The rollups' open buckets in memory (store/rollups.ts writes them): per check and resolution
// the bucket its runs go to now, with counts and a latency histogram of bounded size whose
// counters go back to the shared pools when the bucket closes, so memory stays flat however many
// runs a bucket takes and however long the agent runs; and the buckets left
// behind with runs not yet written, bounded. Figures recorded in different stretches of one
// bucket (before a restart, which left its row behind; before the clock went back to a bucket
// already left) combine so: counts add, min and max combine exactly, median and p95 are those of
// the stretch with more latency samples (percentiles of two summaries cannot be merged exactly).
import { CounterPools } from './counter-pools.ts';
import { LatencyHistogram } from './latency-histogram.ts';

export type Resolution = 'minute' | 'hour';
export const resolutions: readonly Resolution[] = ['minute', 'hour'];
export const bucketMs: Record<Resolution, number> = { minute: 60_000, hour: 3_600_000 };

/** One run as the rollups need it. Latency 0 means nothing came back: not a latency sample. */
export interface RollupRun {
  guid: string;
  ranAtMs: number;
  success: boolean;
  skipped: boolean;
  latencyMs: number;
}

/** A bucket's figures as its row holds them. */
export interface Row {
  runs: number;
  failures: number;
  skipped: number;
  lat_min: number | null;
  lat_median: number | null;
  lat_p95: number | null;
  lat_max: number | null;
  lat_count: number;
}

/**
 * The stored row of a bucket that has none, shared by every open bucket: a row is only read
 * (combine makes a new one). One of these per open bucket was two objects a check, ~170 KB at
 * 1,000 checks, and one more per check for the buckets the writer found no row for (88 bytes a
 * check; heap snapshots, issue 26).
 */
export const noRow: Readonly<Row> = Object.freeze({
  runs: 0,
  failures: 0,
  skipped: 0,
  lat_min: null,
  lat_median: null,
  lat_p95: null,
  lat_max: null,
  lat_count: 0,
});

/** Two stretches of one bucket as one row (the rule in the header comment). */
export function combine(a: Row, b: Row): Row {
  const percentiles = b.lat_count > 0 && b.lat_count >= a.lat_count ? b : a;
  const extreme = (x: number | null, y: number | null, pick: (x: number, y: number) => number): number | null =>
    x === null ? y : y === null ? x : pick(x, y);
  return {
    runs: a.runs + b.runs,
    failures: a.failures + b.failures,
    skipped: a.skipped + b.skipped,
    lat_min: extreme(a.lat_min, b.lat_min, Math.min),
    lat_median: percentiles.lat_median,
    lat_p95: percentiles.lat_p95,
    lat_max: extreme(a.lat_max, b.lat_max, Math.max),
    lat_count: a.lat_count + b.lat_count,
  };
}

/** One bucket of one check with runs this process recorded and has not written yet. */
export interface Unwritten {
  readonly guid: string;
  readonly resolution: Resolution;
  readonly bucket: number;
  /**
   * The stored row before this process first wrote the bucket (a restart mid-bucket left it);
   * undefined until the writer reads it, inside the first transaction that writes the bucket.
   */
  base: Row | undefined;
}

/** The bucket a check's runs go to now. */
interface Open extends Unwritten {
  bucket: number;
  /** What this process recorded of this bucket before the clock went back to it. */
  earlier: Row | undefined;
  /** The latest bucket this process recorded for the check: no row can be past it. */
  newest: number;
  runs: number;
  failures: number;
  skipped: number;
  latency: LatencyHistogram | undefined;
  /** Runs recorded since the last write. */
  dirty: boolean;
}

/** A bucket left behind with unwritten runs, summed up. */
interface LeftBehind extends Unwritten {
  row: Row;
}

const isLeftBehind = (u: Unwritten): u is LeftBehind => 'row' in u;

/** What this process recorded of the open bucket, as a row. */
function ownRow(open: Open): Row {
  const { latency } = open;
  const row: Row = { ...noRow, runs: open.runs, failures: open.failures, skipped: open.skipped };
  if (latency !== undefined && latency.count > 0) {
    row.lat_min = latency.min;
    row.lat_max = latency.max;
    row.lat_median = latency.percentile(50);
    row.lat_p95 = latency.percentile(95);
    row.lat_count = latency.count;
  }
  return open.earlier === undefined ? row : combine(open.earlier, row);
}

export interface OpenBuckets {
  record(runs: readonly RollupRun[]): void;
  /** Every bucket with unwritten runs, or those of one check; the left-behind ones first. */
  unwritten(guid?: string): Unwritten[];
  /** Everything this process recorded of the bucket (written whole, so a retry counts nothing twice). */
  own(bucket: Unwritten): Row;
  /** These were committed to the store. */
  written(buckets: readonly Unwritten[]): void;
  forget(guid: string): void;
  /** Open buckets, buckets with unwritten runs, and the bytes of the latency counters. */
  held(): { open: number; unwritten: number; latencyBytes: number };
}

export function createOpenBuckets(maxLeftBehind: number): OpenBuckets {
  const open: Record<Resolution, Map<string, Open>> = { minute: new Map(), hour: new Map() };
  /** Every open bucket's latency counters, in shared chunks (counter-pools.ts). */
  const pools = new CounterPools();
  /** Keyed resolution:guid:bucket, oldest first. */
  const leftBehind = new Map<string, LeftBehind>();
  const keyOf = (b: { resolution: Resolution; guid: string; bucket: number }): string =>
    `${b.resolution}:${b.guid}:${b.bucket}`;

  /** The check's runs go to another bucket now; the old one's unwritten runs wait to be written. */
  function moveOn(o: Open, bucket: number): void {
    if (o.dirty) {
      leftBehind.set(keyOf(o), {
        guid: o.guid,
        resolution: o.resolution,
        bucket: o.bucket,
        base: o.base,
        row: ownRow(o),
      });
      if (leftBehind.size > maxLeftBehind) leftBehind.delete(leftBehind.keys().next().value ?? '');
    }
    const later = bucket > o.newest;
    o.bucket = bucket;
    o.newest = Math.max(o.newest, bucket);
    const back = leftBehind.get(keyOf(o));
    if (back !== undefined) leftBehind.delete(keyOf(o));
    // A bucket after every one this process recorded cannot have a row yet; any other (the clock
    // went back) may: its row is read when it is written.
    o.base = back?.base ?? (later ? noRow : undefined);
    o.earlier = back?.row;
    o.runs = o.failures = o.skipped = 0;
    o.latency?.clear();
    o.dirty = false;
  }

  return {
    record(runs) {
      for (const run of runs) {
        const latency = !run.skipped && run.latencyMs > 0;
        for (const r of resolutions) {
          const bucket = Math.floor(run.ranAtMs / bucketMs[r]);
          let o = open[r].get(run.guid);
          if (o === undefined) {
            o = {
              guid: run.guid,
              resolution: r,
              bucket,
              newest: bucket,
              base: undefined,
              earlier: undefined,
              runs: 0,
              failures: 0,
              skipped: 0,
              latency: undefined,
              dirty: false,
            };
            open[r].set(run.guid, o);
          } else if (o.bucket !== bucket) moveOn(o, bucket);
          o.runs += 1;
          if (run.skipped) o.skipped += 1;
          else if (!run.success) o.failures += 1;
          if (latency) (o.latency ??= new LatencyHistogram(pools)).add(run.latencyMs);
          o.dirty = true;
        }
      }
    },
    unwritten(guid) {
      // Left behind first: they are done, and hold memory until written.
      const found: Unwritten[] = [];
      for (const l of leftBehind.values()) if (guid === undefined || l.guid === guid) found.push(l);
      for (const r of resolutions) {
        const candidates = guid === undefined ? open[r].values() : [open[r].get(guid)];
        for (const o of candidates) if (o?.dirty === true) found.push(o);
      }
      return found;
    },
    own: (u) => (isLeftBehind(u) ? u.row : ownRow(u as Open)),
    written(buckets) {
      // Nothing was recorded in between: writing is synchronous.
      for (const u of buckets) {
        if (isLeftBehind(u)) leftBehind.delete(keyOf(u));
        else (u as Open).dirty = false;
      }
    },
    forget(guid) {
      for (const r of resolutions) {
        open[r].get(guid)?.latency?.clear();
        open[r].delete(guid);
      }
      for (const [key, l] of leftBehind) if (l.guid === guid) leftBehind.delete(key);
    },
    held() {
      let count = 0;
      let latencyBytes = 0;
      for (const r of resolutions) {
        for (const o of open[r].values()) {
          count += 1;
          latencyBytes += o.latency?.bytes ?? 0;
        }
      }
      let unwritten = leftBehind.size;
      for (const r of resolutions) for (const o of open[r].values()) if (o.dirty) unwritten += 1;
      return { open: count, unwritten, latencyBytes };
    },
  };
}
