// Rollup buckets as the latency chart and the uptime figures read them: pure, so the chart, its
// text alternative and the tests agree on every number.
import { duration, percent, timeOfDay } from '../format.ts';

/** Structurally the agent's RollupBucket. */
export interface ChartBucket {
  startMs: number;
  runs: number;
  failures: number;
  skipped: number;
  latency?: { min: number; median: number; p95: number; max: number };
}

export interface WindowFigures {
  runs: number;
  failures: number;
  skipped: number;
}

export type RangeName = '1h' | '24h' | '7d';
export const ranges: { name: RangeName; label: string; words: string; ms: number }[] = [
  { name: '1h', label: '1 h', words: 'the last hour', ms: 3_600_000 },
  { name: '24h', label: '24 h', words: 'the last 24 hours', ms: 86_400_000 },
  { name: '7d', label: '7 d', words: 'the last 7 days', ms: 7 * 86_400_000 },
];

/** uPlot's aligned data: time (s), median, p95, and a mark where runs failed (else null). */
export type ChartData = [number[], (number | null)[], (number | null)[], (number | null)[]];

export function chartData(buckets: readonly ChartBucket[]): ChartData {
  const data: ChartData = [[], [], [], []];
  for (const b of buckets) {
    data[0].push(b.startMs / 1000);
    data[1].push(b.latency?.median ?? null);
    data[2].push(b.latency?.p95 ?? null);
    // A failed run is marked at the bucket's slowest latency, or on the axis when nothing came back.
    data[3].push(b.failures > 0 ? (b.latency?.max ?? 0) : null);
  }
  return data;
}

export function uptimeOf(w: WindowFigures): number | undefined {
  const decided = w.runs - w.skipped;
  return decided <= 0 ? undefined : (100 * (decided - w.failures)) / decided;
}

/** "99.2 % over the last 24 hours (1,440 runs, 11 failed)". */
export function uptimeSentence(w: WindowFigures, words: string): string {
  const value = uptimeOf(w);
  if (value === undefined) return `No runs over ${words}`;
  const skipped = w.skipped > 0 ? `, ${w.skipped.toLocaleString()} skipped` : '';
  return `${percent(value)} over ${words} (${w.runs.toLocaleString()} runs, ${w.failures.toLocaleString()} failed${skipped})`;
}

/** The chart in words: what a screen reader hears and what a chart-less host shows. */
export function chartSummary(buckets: readonly ChartBucket[], words: string, bucketMs: number): string {
  const withLatency = buckets.flatMap((b) => (b.latency === undefined ? [] : [b.latency]));
  if (buckets.length === 0) return `No runs over ${words}.`;
  const failedBuckets = buckets.filter((b) => b.failures > 0).length;
  const failed =
    failedBuckets === 0
      ? 'no failed runs'
      : `failed runs in ${failedBuckets} of ${buckets.length} ${buckets.length === 1 ? 'period' : 'periods'} of ${duration(bucketMs / 1000)}`;
  if (withLatency.length === 0) return `Latency over ${words}: nothing came back; ${failed}.`;
  const medians = withLatency.map((l) => l.median).sort((a, b) => a - b);
  const typical = medians[Math.floor((medians.length - 1) / 2)] ?? 0;
  const worst = Math.max(...withLatency.map((l) => l.max));
  return `Latency over ${words}: typically ${typical} ms, at worst ${worst} ms; ${failed}.`;
}

/**
 * The time axis' labels, in the window's time format (uPlot's own reads "5:13pm" whatever the
 * locale): the time of day, with the day on a second line where a new day begins (on the first
 * tick unless that is today); a tick at midnight is the day itself.
 */
export function axisTimes(ticksMs: readonly number[], nowMs: number): string[] {
  const days = (ms: number): string =>
    new Date(ms).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  return ticksMs.map((ms, i) => {
    const date = new Date(ms);
    const midnight = date.getHours() === 0 && date.getMinutes() === 0;
    const before = ticksMs[i - 1];
    const newDay =
      before === undefined
        ? date.toDateString() !== new Date(nowMs).toDateString()
        : new Date(before).toDateString() !== date.toDateString();
    if (midnight) return days(ms);
    return newDay ? `${timeOfDay(ms)}\n${days(ms)}` : timeOfDay(ms);
  });
}
