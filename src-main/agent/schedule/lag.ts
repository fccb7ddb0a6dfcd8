// Schedule lag: how late a run starts after its due time (the timer firing late, the event loop
// busy, a wait behind the concurrency cap). Counted in a fixed histogram, whatever the number of
// runs: one 1 ms bucket per millisecond below lagBoundMs, one overflow bucket above. The goal
// (issue 14: p99 <= 20 ms) sits far inside the exact range; a lag of a second or more is reported
// as the bound itself — by then the run is late by a good share of its interval anyway.
// Counters are uint32 running totals: a difference of two copies is right modulo 2^32, so a
// window's counts stay right even after a bucket wraps (years of runs at a few thousand a second).

/** Lags from this many ms on share the overflow bucket. */
export const lagBoundMs = 1000;

/** Running totals per bucket: index = whole ms of lag, the last index = lagBoundMs or more. */
export type LagCounts = Uint32Array;

export const newLagCounts = (): LagCounts => new Uint32Array(lagBoundMs + 1);

/** Counts one run's lag; a negative lag (a run started early by a clock step) counts as 0. */
export function recordLag(counts: LagCounts, lagMs: number): void {
  const bucket = lagMs >= lagBoundMs ? lagBoundMs : lagMs > 0 ? Math.floor(lagMs) : 0;
  counts[bucket] = (counts[bucket] ?? 0) + 1;
}

/**
 * The nearest-rank percentile of the runs counted between `first` and `last` (two copies of the
 * same running totals, `first` older; none: since the start), in whole ms, at most lagBoundMs;
 * null when no run started in between.
 */
export function lagPercentile(last: LagCounts, first: LagCounts | undefined, p: number): number | null {
  const inWindow = (i: number): number => ((last[i] ?? 0) - (first?.[i] ?? 0)) >>> 0;
  let total = 0;
  for (let i = 0; i <= lagBoundMs; i++) total += inWindow(i);
  if (total === 0) return null;
  const rank = Math.min(total, Math.max(1, Math.ceil((p / 100) * total)));
  let seen = 0;
  for (let i = 0; i <= lagBoundMs; i++) {
    seen += inWindow(i);
    if (seen >= rank) return i;
  }
  return lagBoundMs;
}
