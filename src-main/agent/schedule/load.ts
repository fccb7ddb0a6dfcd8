// Whether the agent keeps up with its checks. Demand beyond capacity never becomes a queue: the
// scheduler skips a run whose check is still running when due again, or that waited behind the
// concurrency cap past its next due time, and counts it. Those counts, over a recent window, say
// "overloaded" — so the user learns that runs are missing before the gaps show on the server.

/** The scheduler's running totals since it started. */
export interface RunCounts {
  executed: number;
  skippedOverlap: number;
  skippedBacklog: number;
}

export interface LoadReport {
  /** Runs were skipped in the recent window beyond the tolerated share, or held by the cap. */
  overloaded: boolean;
  /** Totals since probing started. */
  skippedOverlap: number;
  skippedBacklog: number;
  /** Runs due and runs skipped within the recent window. */
  recentDue: number;
  recentSkipped: number;
}

export interface LoadOptions {
  /** How far back "recent" reaches. */
  windowMs: number;
  /** Skipped share of due runs, over the window, from which overlaps alone count as overload. */
  overlapShare: number;
}

export interface LoadWatch {
  /** Adds the scheduler's totals at monotonic time `at`; returns the verdict over the window. */
  record(at: number, counts: RunCounts): LoadReport;
}

const skipped = (c: RunCounts): number => c.skippedOverlap + c.skippedBacklog;

/**
 * Overlaps alone may be one slow target among many (its own business, tolerated up to a share);
 * a run held behind the concurrency cap means the agent as a whole is short of capacity.
 */
export function loadVerdict(options: LoadOptions, first: RunCounts, last: RunCounts): LoadReport {
  const recentSkipped = skipped(last) - skipped(first);
  const recentDue = last.executed - first.executed + recentSkipped;
  const backlog = last.skippedBacklog > first.skippedBacklog;
  const share = recentDue === 0 ? 0 : recentSkipped / recentDue;
  return {
    overloaded: backlog || (recentSkipped > 0 && share >= options.overlapShare),
    skippedOverlap: last.skippedOverlap,
    skippedBacklog: last.skippedBacklog,
    recentDue,
    recentSkipped,
  };
}

export function createLoadWatch(options: LoadOptions): LoadWatch {
  // Samples at most one window old, plus the newest one before it (the window's baseline).
  let samples: { at: number; counts: RunCounts }[] = [];
  return {
    record(at, counts) {
      samples.push({ at, counts: { ...counts } });
      const start = at - options.windowMs;
      let base = 0;
      while (base + 1 < samples.length && (samples[base + 1]?.at ?? at) <= start) base++;
      samples = samples.slice(base);
      const first = samples[0]?.counts ?? counts;
      return loadVerdict(options, first, counts);
    },
  };
}

/** The one line the window, `status` and the log show while the agent is overloaded. */
export function describeOverload(report: Pick<LoadReport, 'recentSkipped'>): string {
  const runs = `${report.recentSkipped} run${report.recentSkipped === 1 ? ' was' : 's were'}`;
  return `The agent cannot keep up: ${runs} skipped in the last minute because checks were still running or waiting when due again. Lengthen check intervals or run fewer checks on this machine.`;
}
