// Whether the agent keeps up with its checks. Demand beyond capacity never becomes a queue: the
// scheduler skips a run that waited behind the concurrency cap past its next due time, and
// counts it; over a recent window that says "overloaded" — the agent's own capacity is short,
// and the user learns it before the gaps show on the server. A run skipped because the check's
// previous run was still going (a slow target overlapping its own next run) is the target's
// doing, not the agent's: counted apart, never called overload.
// The same window gives the schedule lag p99: how late runs start, before any is skipped.
import { lagPercentile, newLagCounts, type LagCounts } from './lag.ts';
import type { SchedulerStats } from './scheduler-api.ts';

/**
 * The scheduler's running totals since it started (each one's meaning: SchedulerStats); runs due
 * = executed + skippedOverlap + skippedBacklog.
 */
export type RunTotals = Pick<SchedulerStats, 'executed' | 'skippedOverlap' | 'skippedBacklog' | 'startedAfterWait'>;

/** The totals alone, copied out of anything that carries them (a sample keeps its own). */
const totalsOf = (c: RunTotals): RunTotals => ({
  executed: c.executed,
  skippedOverlap: c.skippedOverlap,
  skippedBacklog: c.skippedBacklog,
  startedAfterWait: c.startedAfterWait,
});

export interface RunCounts extends RunTotals {
  /** The scheduler's lag totals (schedule/lag.ts); absent: no lag figure. */
  lag?: LagCounts;
  /** The cap on runs at once when the sample was taken (SchedulerStats.cap); absent: not known. */
  cap?: number;
}

/** The totals since probing started, and the verdict over the recent window. */
export interface LoadReport extends RunTotals {
  /** Runs were skipped in the recent window beyond the tolerated share, or held by the cap. */
  overloaded: boolean;
  /** Runs due and runs skipped within the recent window (both kinds of skip). */
  recentDue: number;
  recentSkipped: number;
  /** Of those, held behind the concurrency cap (the agent's capacity) ... */
  recentBacklog: number;
  /** ... and skipped because the check's previous run was still going (its target's slowness). */
  recentOverlap: number;
  /** The 99th percentile of the schedule lag of runs started within the window, ms; null: none started. */
  lagP99Ms: number | null;
  /**
   * The cap on runs at once at the newest sample: the full concurrency, or lower while the probe
   * thread is the bottleneck (runs/run-cap.ts); null: not known.
   */
  runCap: number | null;
}

export interface LoadOptions {
  /** How far back "recent" reaches. */
  windowMs: number;
}

export interface LoadWatch {
  /** Adds the scheduler's totals at monotonic time `at`; returns the verdict over the window. */
  record(at: number, counts: RunCounts): LoadReport;
}

const skipped = (c: RunCounts): number => c.skippedOverlap + c.skippedBacklog;

/**
 * Only a run held behind the concurrency cap means the agent as a whole is short of capacity;
 * overlaps, however many, are slow targets (35 hostile checks timing out are not the agent's fault).
 */
export function loadVerdict(first: RunCounts, last: RunCounts): LoadReport {
  const recentSkipped = skipped(last) - skipped(first);
  const recentDue = last.executed - first.executed + recentSkipped;
  const recentBacklog = last.skippedBacklog - first.skippedBacklog;
  return {
    ...totalsOf(last),
    overloaded: recentBacklog > 0,
    recentDue,
    recentSkipped,
    recentBacklog,
    recentOverlap: recentSkipped - recentBacklog,
    lagP99Ms: last.lag === undefined ? null : lagPercentile(last.lag, first.lag, 99),
    runCap: last.cap ?? null,
  };
}

export function createLoadWatch(options: LoadOptions): LoadWatch {
  // Samples at most one window old, plus the newest one before it (the window's baseline). Each
  // keeps its own copy of the lag totals; copies of samples that left the window are reused.
  let samples: { at: number; counts: RunCounts }[] = [];
  const spare: LagCounts[] = [];
  return {
    record(at, counts) {
      const lag = counts.lag === undefined ? undefined : (spare.pop() ?? newLagCounts());
      if (lag !== undefined && counts.lag !== undefined) lag.set(counts.lag);
      const copy: RunCounts = {
        ...totalsOf(counts),
        ...(lag === undefined ? {} : { lag }),
        ...(counts.cap === undefined ? {} : { cap: counts.cap }),
      };
      samples.push({ at, counts: copy });
      const start = at - options.windowMs;
      let base = 0;
      while (base + 1 < samples.length && (samples[base + 1]?.at ?? at) <= start) base++;
      for (const gone of samples.slice(0, base)) if (gone.counts.lag !== undefined) spare.push(gone.counts.lag);
      samples = samples.slice(base);
      const first = samples[0]?.counts ?? copy;
      return loadVerdict(first, copy);
    },
  };
}

/** The one line the window, `status` and the log show while the agent is overloaded. */
export function describeOverload(report: Pick<LoadReport, 'recentBacklog'>): string {
  const runs = `${report.recentBacklog} run${report.recentBacklog === 1 ? ' was' : 's were'}`;
  return `The agent cannot keep up: ${runs} skipped in the last minute because they waited for a free slot past their next due time. Lengthen check intervals or run fewer checks on this machine.`;
}
