// The running agent's load (schedule/load.ts) kept in the store, where `status --json` — another
// process — reads it. Written at every sample and removed when probing stops; a figure older
// than a few sample periods belongs to an agent that is gone (killed) and is ignored.
import type { Clock } from '../base/clock.ts';
import type { Logger } from '../base/log.ts';
import { describeOverload, type LoadReport } from '../schedule/load.ts';
import type { LiveState } from './state.ts';
import type { Database } from '../store/database.ts';
import { deleteMeta, getMeta, setMeta } from '../store/meta.ts';

export interface StoredLoad extends LoadReport {
  /** Wall-clock ms of the sample. */
  at: number;
}

export function saveLoad(db: Database, report: LoadReport, atMs: number): void {
  setMeta(db, 'load', JSON.stringify({ ...report, at: atMs } satisfies StoredLoad));
}

export function clearLoad(db: Database): void {
  deleteMeta(db, 'load');
}

/** The running agent's load, with the wall-clock ms it was sampled at, if a fresh one is recorded. */
export function readLoad(db: Database, nowMs: number, freshMs: number): StoredLoad | undefined {
  const raw = getMeta(db, 'load');
  if (raw === undefined) return undefined;
  try {
    const stored = JSON.parse(raw) as StoredLoad;
    return nowMs - stored.at <= freshMs ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** Whether two reports differ in anything shown: equal ones are neither stored nor announced. */
export const sameLoad = (a: LoadReport | undefined, b: LoadReport): boolean =>
  a !== undefined &&
  a.overloaded === b.overloaded &&
  a.skippedOverlap === b.skippedOverlap &&
  a.skippedBacklog === b.skippedBacklog &&
  a.recentSkipped === b.recentSkipped &&
  a.recentBacklog === b.recentBacklog;

export interface LoadReporterDeps {
  db: Database;
  clock: Clock;
  log: Logger;
  live: LiveState;
}

/**
 * The stored figure is advisory (a missed one goes stale and is ignored), and the store's own
 * trouble, a full disk, is named by the result recording. This runs on the sampling timer and in
 * the stop, where a throw ended the process or cut the stop short (uncounted results, open store).
 */
function bestEffort(write: () => void): void {
  try {
    write();
  } catch {
    // See above: nothing to add to what the recording already says.
  }
}

/** Keeps the scheduler's load samples where the window and `status --json` read them. */
export function createLoadReporter(deps: LoadReporterDeps): { report(report: LoadReport): void; clear(): void } {
  return {
    report(report) {
      // Stored at every sample: status --json takes an old figure for a stopped agent.
      bestEffort(() => saveLoad(deps.db, report, deps.clock.now()));
      const before = deps.live.get().load;
      if (sameLoad(before, report)) return;
      if (report.overloaded && before?.overloaded !== true)
        deps.log.warn({ skipped: report.recentBacklog }, describeOverload(report));
      deps.live.update((s) => ({ ...s, load: report }));
    },
    clear() {
      bestEffort(() => clearLoad(deps.db));
      if (deps.live.get().load !== undefined) deps.live.update(({ load: _gone, ...rest }) => rest);
    },
  };
}
