// Commits results in batched transactions: runs that finish close together share one commit,
// so thousands of results a second cost a few commits, while a lone result commits at once.
import type { Clock, TimerHandle } from '../clock.ts';
import { transaction, type Database } from '../store/database.ts';
import type { History, HistoryEntry } from '../store/history.ts';
import type { Outbox } from '../store/outbox.ts';
import type { WireResult } from '../wire/schemas.ts';

export interface RunRecord {
  /** Absent for a run that is not uploaded (a failure while offline). */
  result?: WireResult;
  history: HistoryEntry;
}

export interface ResultSink {
  add(record: RunRecord): void;
  /** Commits everything pending now. */
  flush(): void;
  pending(): number;
}

export interface ResultSinkOptions {
  db: Database;
  outbox: Outbox;
  history: History;
  clock: Clock;
  /** Commit at once when this many are pending (one wire batch). */
  maxBatch: number;
  onCommitted: (committed: { results: number; history: readonly HistoryEntry[]; dropped: number }) => void;
  onError: (error: unknown) => void;
}

export function createResultSink(options: ResultSinkOptions): ResultSink {
  let pending: RunRecord[] = [];
  let timer: TimerHandle | undefined;

  function flush(): void {
    timer?.cancel();
    timer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    const results = batch.flatMap((r) => (r.result === undefined ? [] : [r.result]));
    try {
      const dropped = transaction(options.db, () => {
        options.outbox.insert(results);
        options.history.insert(batch.map((r) => r.history));
        return options.outbox.enforceBound();
      });
      options.onCommitted({ results: results.length, history: batch.map((r) => r.history), dropped });
    } catch (error) {
      // A failed commit (disk full, I/O error) keeps the batch for the next attempt.
      pending = batch.concat(pending);
      options.onError(error);
      timer = options.clock.setTimer(1000, flush);
    }
  }

  return {
    add(record) {
      pending.push(record);
      if (pending.length >= options.maxBatch) flush();
      // A zero-delay timer: everything finishing in this turn of the event loop shares a commit.
      else timer ??= options.clock.setTimer(0, flush);
    },
    flush,
    pending: () => pending.length,
  };
}
