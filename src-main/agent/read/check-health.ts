// A check's health and how checks are counted, decided once for the UI, the tray and the CLI:
// every check falls in exactly one of up / down / pending / skipped / not run.
export type CheckHealth = 'up' | 'down' | 'pending' | 'skipped' | 'paused' | 'disabled' | 'not-run';

export type CountBucket = 'up' | 'down' | 'pending' | 'skipped' | 'notRun';

export interface CheckCounts {
  total: number;
  runnable: number;
  up: number;
  down: number;
  pending: number;
  /** The last run got no answer while this machine was offline. */
  skipped: number;
  notRun: number;
}

/** What health and counting look at. */
export interface HealthFacts {
  enabled: boolean;
  runnable: boolean;
  lastResult?: { success: boolean; skipped: boolean } | undefined;
}

/** The bucket a check is counted in. A paused check counts by its last result (it still holds). */
export function bucketOf(check: HealthFacts): CountBucket {
  if (!check.runnable) return 'notRun';
  const last = check.lastResult;
  if (last === undefined) return 'pending';
  if (last.skipped) return 'skipped';
  return last.success ? 'up' : 'down';
}

/** up/down from the last run; pending = no run yet; skipped = last run fell in an outage. */
export function healthOf(check: HealthFacts, probingStopped: boolean): CheckHealth {
  if (!check.enabled) return 'disabled';
  if (!check.runnable) return 'not-run';
  if (probingStopped) return 'paused';
  const bucket = bucketOf(check);
  return bucket === 'notRun' ? 'not-run' : bucket;
}

export function countChecks(checks: readonly HealthFacts[]): CheckCounts {
  const counts: CheckCounts = { total: checks.length, runnable: 0, up: 0, down: 0, pending: 0, skipped: 0, notRun: 0 };
  for (const check of checks) {
    if (check.runnable) counts.runnable++;
    counts[bucketOf(check)]++;
  }
  return counts;
}
