// Each check's last run, kept once for everything the window shows of it: the last result on its
// row (and the overview's reason for a check that is down) and the run explanation in its detail.
// They were two copies of one run (a history entry in store/check-stats.ts, a RunExplanation in
// read/check-insight.ts) and they disagreed: the row showed the history's real reason of a
// private check, its match string in clear, where the explanation masked it. Here the error is
// the one the UI may show (results/privacy.ts shownError) for both; the real reason stays in the
// history, shown in the check's recent runs.
import type { ProbeOutcome } from '../probes/types.ts';
import { shownEarlierError } from '../results/privacy.ts';
import type { HistoryEntry } from '../store/history.ts';
import { ExplainedRun, explanationOf, keepRun, type RunExplanation } from './run-explanation.ts';

/** What a row shows of one run: the same fields in a kept run and in a kept skip. */
type RowFigures = Pick<ExplainedRun, 'ranAtMs' | 'success' | 'httpStatus' | 'latencyMs' | 'error'>;

/** A skipped run as the row shows it; kept for the check's next skip once it has had one. */
class Skip implements RowFigures {
  ranAtMs = 0;
  success = false;
  httpStatus = 0;
  latencyMs = 0;
  error = '';
}

/**
 * A check's newest run that was not skipped, and the newest entry when that was skipped (the row
 * shows the skip; the explanation stays with the run before it). Updated in place by every run.
 */
class LastRun extends ExplainedRun {
  /** The fields of ExplainedRun hold a run (a check may have only skips so far). */
  hasRun = false;
  /**
   * The run is the store's newest entry from before this start: its error was never masked, and
   * it cannot be explained (the store keeps the verdict only).
   */
  earlierRun = false;
  /** The newest entry is a skipped run, held in `skip`. */
  skippedNewest = false;
  skip: Skip | undefined = undefined;
  /** That skip is the store's, from before this start. */
  earlierSkip = false;
}

function keepFigures(
  into: RowFigures,
  from: Pick<ProbeOutcome, 'success' | 'httpStatus' | 'latencyMs'>,
  atMs: number,
  error: string,
): void {
  into.ranAtMs = atMs;
  into.success = from.success;
  into.httpStatus = from.httpStatus;
  into.latencyMs = from.latencyMs;
  into.error = error;
}

/** A row's last result; `earlier`: from the store before this start, its error never masked. */
const entryOf = (
  guid: string,
  run: RowFigures,
  skipped: boolean,
  earlier: boolean,
  privateCheck: boolean,
): HistoryEntry => ({
  check_guid: guid,
  ran_at: new Date(run.ranAtMs).toISOString(),
  success: run.success,
  skipped,
  http_status: run.httpStatus,
  latency_ms: run.latencyMs,
  error: earlier ? shownEarlierError(run.error, privateCheck) : run.error,
});

export interface LastRuns {
  /** Each check's newest kept entry from before this start (store/history.ts newestEntries). */
  seed(entries: readonly HistoryEntry[]): void;
  /**
   * A run was committed to the store. `error` is as the UI may show it (masked for a private
   * check) and `privateSecrets` mask its sample.
   */
  ran(
    guid: string,
    outcome: ProbeOutcome,
    ranAtMs: number,
    skipped: boolean,
    error: string,
    privateSecrets: readonly string[] | undefined,
  ): void;
  /** The check's last result as its row shows it. */
  row(guid: string, privateCheck: boolean): HistoryEntry | undefined;
  /** The check's last run that was not skipped, explained: undefined before one in this process. */
  explained(guid: string): RunExplanation | undefined;
  forget(guid: string): void;
}

export function createLastRuns(): LastRuns {
  const runs = new Map<string, LastRun>();
  function kept(guid: string): LastRun {
    let last = runs.get(guid);
    if (last === undefined) {
      last = new LastRun();
      runs.set(guid, last);
    }
    return last;
  }
  return {
    seed(entries) {
      for (const entry of entries) {
        const last = kept(entry.check_guid);
        const figures = { success: entry.success, httpStatus: entry.http_status, latencyMs: entry.latency_ms };
        const at = Date.parse(entry.ran_at) || 0;
        if (entry.skipped) {
          keepFigures((last.skip ??= new Skip()), figures, at, entry.error);
          last.skippedNewest = true;
          last.earlierSkip = true;
          continue;
        }
        keepFigures(last, figures, at, entry.error);
        last.hasRun = true;
        last.earlierRun = true;
      }
    },
    ran(guid, outcome, ranAtMs, skipped, error, privateSecrets) {
      const last = kept(guid);
      if (skipped) {
        keepFigures((last.skip ??= new Skip()), outcome, ranAtMs, error);
        last.skippedNewest = true;
        last.earlierSkip = false;
        return;
      }
      keepRun(last, outcome, ranAtMs, error, privateSecrets);
      last.hasRun = true;
      last.earlierRun = false;
      last.skippedNewest = false;
    },
    row(guid, privateCheck) {
      const last = runs.get(guid);
      if (last?.skippedNewest === true && last.skip !== undefined)
        return entryOf(guid, last.skip, true, last.earlierSkip, privateCheck);
      return last?.hasRun === true ? entryOf(guid, last, false, last.earlierRun, privateCheck) : undefined;
    },
    explained(guid) {
      const last = runs.get(guid);
      return last === undefined || !last.hasRun || last.earlierRun ? undefined : explanationOf(last, false);
    },
    forget(guid) {
      runs.delete(guid);
    },
  };
}
