// Where finished runs go: the result sink commits them (outbox + history in one transaction),
// and this module keeps what the rest of the agent sees in step — per-check figures and the
// rollups (from a commit that succeeded, never before), the dropped count, a full disk said once
// in the log, the window and `status --json`, and its recovery.
import type { Clock } from '../base/clock.ts';
import type { Logger } from '../base/log.ts';
import type { LiveState } from '../live/state.ts';
import type { AgentStore } from '../store/agent-store.ts';
import type { HistoryEntry } from '../store/history.ts';
import { wireLimits } from '../wire/limits.ts';
import { createResultSink, describeStoreProblem, type ResultSink } from './result-sink.ts';

export interface RecordingDeps {
  /** Results go to the outbox and the history in one transaction; the per-check figures follow. */
  store: Pick<AgentStore, 'db' | 'outbox' | 'history' | 'stats' | 'pageCache'>;
  /** The rollups behind the window (read/check-insight.ts): fed from each commit, once it succeeded. */
  insight: { committed(entries: readonly HistoryEntry[]): void };
  clock: Clock;
  log: Logger;
  live: LiveState;
  dataDir: string;
  /** After every commit: a full wire batch may be waiting to go. */
  onBatchWaiting: () => void;
  /** Results are saved again after a store problem: what waited can go now. */
  onRecovered: () => void;
  /** Whether the check is still in the check set: a late run of one that left keeps no history. */
  holds: (guid: string) => boolean;
}

export function createRecording(deps: RecordingDeps): ResultSink {
  const { live, log } = deps;
  const { db, outbox, history, stats, pageCache } = deps.store;
  return createResultSink({
    db,
    outbox,
    history,
    clock: deps.clock,
    maxBatch: wireLimits.resultsPerBatch,
    keepsHistoryOf: deps.holds,
    onCommitted: ({ results, dropped, history: entries }) => {
      pageCache.committed(results, deps.clock.monotonic());
      for (const entry of entries) stats.record(entry);
      deps.insight.committed(entries);
      if (dropped > 0) {
        log.warn({ dropped }, 'the outbox is full; the oldest results were dropped');
        live.update((s) => ({ ...s, droppedResults: outbox.dropped() }));
      }
      deps.onBatchWaiting();
      live.update((s) => s);
    },
    onCallbackError: (error) =>
      log.error({ err: error }, 'a result was saved, but updating the window and the event log from it failed'),
    onProblem: (problem, error) => {
      const message = describeStoreProblem(problem, deps.dataDir);
      // Once per problem in the log (the retry runs every second); the state follows the counts.
      if (live.get().storeProblem === undefined)
        log.error({ detail: problem.detail, code: (error as { errcode?: number }).errcode }, message);
      // live-state.json carries it to `status --json`, rewritten in place when the disk is full.
      const storeFault = { kind: problem.kind, folder: deps.dataDir, dropped: problem.dropped };
      live.update((s) => ({ ...s, storeProblem: message, storeFault, unsavedResults: problem.waiting }));
    },
    onRecovered: (problem) => {
      log.info({ dropped: problem.dropped }, 'results are saved again');
      live.update(({ storeProblem: _gone, storeFault: _fault, unsavedResults: _none, ...rest }) => ({
        ...rest,
        droppedResults: outbox.dropped(),
      }));
      deps.onRecovered();
    },
  });
}
