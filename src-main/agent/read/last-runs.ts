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
  /** The newest entry is a skipped run: its time and figures follow. */
  skippedNewest = false;
  skippedAtMs = 0;
  /** That skip is the store's, from before this start. */
  earlierSkip = false;
  skippedSuccess = false;
  skippedHttpStatus = 0;
  skippedLatencyMs = 0;
  skippedError = '';
}

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
        const at = Date.parse(entry.ran_at) || 0;
        if (entry.skipped) {
          last.skippedNewest = true;
          last.earlierSkip = true;
          last.skippedAtMs = at;
          last.skippedSuccess = entry.success;
          last.skippedHttpStatus = entry.http_status;
          last.skippedLatencyMs = entry.latency_ms;
          last.skippedError = entry.error;
          continue;
        }
        last.hasRun = true;
        last.earlierRun = true;
        last.ranAtMs = at;
        last.success = entry.success;
        last.httpStatus = entry.http_status;
        last.latencyMs = entry.latency_ms;
        last.error = entry.error;
      }
    },
    ran(guid, outcome, ranAtMs, skipped, error, privateSecrets) {
      const last = kept(guid);
      if (skipped) {
        last.skippedNewest = true;
        last.skippedAtMs = ranAtMs;
        last.skippedSuccess = outcome.success;
        last.skippedHttpStatus = outcome.httpStatus;
        last.skippedLatencyMs = outcome.latencyMs;
        last.skippedError = error;
        last.earlierSkip = false;
        return;
      }
      keepRun(last, outcome, ranAtMs, error, privateSecrets);
      last.hasRun = true;
      last.earlierRun = false;
      last.skippedNewest = false;
      last.skippedError = '';
    },
    row(guid, privateCheck) {
      const last = runs.get(guid);
      if (last === undefined) return undefined;
      if (last.skippedNewest)
        return {
          check_guid: guid,
          ran_at: new Date(last.skippedAtMs).toISOString(),
          success: last.skippedSuccess,
          skipped: true,
          http_status: last.skippedHttpStatus,
          latency_ms: last.skippedLatencyMs,
          error: last.earlierSkip ? shownEarlierError(last.skippedError, privateCheck) : last.skippedError,
        };
      if (!last.hasRun) return undefined;
      return {
        check_guid: guid,
        ran_at: new Date(last.ranAtMs).toISOString(),
        success: last.success,
        skipped: false,
        http_status: last.httpStatus,
        latency_ms: last.latencyMs,
        error: last.earlierRun ? shownEarlierError(last.error, privateCheck) : last.error,
      };
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
