// Commits results in batched transactions: runs that finish within one commit window share one
// commit, so thousands of results a second cost a few commits a second instead of one per turn of
// the event loop (each commit appends its own WAL frames for every page it touches).
// When commits fail (a full disk, an I/O error) results wait in memory, bounded, and commits are
// retried in small batches every second, so that the first freed pages are used at once.
import type { Clock, TimerHandle } from '../base/clock.ts';
import { isDiskFull, transaction, type Database } from '../store/database.ts';
import type { History, HistoryEntry } from '../store/history.ts';
import { addDropped } from '../store/meta.ts';
import type { Outbox } from '../store/outbox.ts';
import type { WireResult } from '../wire/schemas.ts';

export interface RunRecord {
  /** Absent for a run that is not uploaded (a failure while offline). */
  result?: WireResult;
  history: HistoryEntry;
  /**
   * Called once the run is in the store, never before: what the window, the event log and
   * notifications learn of a run goes through here, so nothing sees a result that a crash could
   * still take back. Not called for a run dropped from memory while the disk was full.
   */
  committed?: () => void;
}

/** Why results are waiting in memory instead of in the store. */
export interface StoreProblem {
  kind: 'disk-full' | 'write-failed';
  /** Runs waiting in memory for the store. */
  waiting: number;
  /** Runs dropped from memory (the oldest first) since the store last took a commit. */
  dropped: number;
  /** SQLite's own words, for the log. */
  detail: string;
}

export interface ResultSink {
  add(record: RunRecord): void;
  /** Commits everything pending now. */
  flush(): void;
  pending(): number;
  /** The current problem, while commits fail. */
  problem(): StoreProblem | undefined;
  /** Stops retrying; returns what could not be saved (waiting + dropped from memory). */
  close(): { unsaved: number; dropped: number };
}

export interface ResultSinkOptions {
  db: Database;
  outbox: Outbox;
  history: History;
  clock: Clock;
  /** Commit at once when this many are pending (one wire batch). */
  maxBatch: number;
  /** Runs kept in memory while the store cannot take them; beyond it the oldest are dropped. */
  maxPending?: number;
  /** Records per retry commit while commits fail: a whole backlog would need all its space at once. */
  retryBatch?: number;
  /** Delay between retries while commits fail. */
  retryMs?: number;
  /** How long a result may wait for others to share its commit. */
  commitWindowMs?: number;
  /**
   * Whether a run's check is still one to keep history for, asked at its commit. A run that
   * ends, or waits for its commit, after its check left the check set still goes to the outbox
   * (the server drops results of checks it no longer assigns: wire-api "accepted"), but its
   * entry is not written and is not in onCommitted's history: the check was forgotten when it
   * left (history, figures, rollups), and that entry would bring it back for good. All by default.
   */
  keepsHistoryOf?: (guid: string) => boolean;
  onCommitted: (committed: { results: number; history: readonly HistoryEntry[]; dropped: number }) => void;
  /** Commits failed: called on every failed attempt with the current problem. */
  onProblem?: (problem: StoreProblem, error: unknown) => void;
  /** Commits work again after a problem. */
  onRecovered?: (problem: StoreProblem) => void;
  /**
   * A callback after a commit threw (onCommitted or a record's `committed`). The results are
   * stored, so it is reported, never retried: retrying would commit them twice.
   */
  onCallbackError?: (error: unknown) => void;
}

/** The sink's numbers, each with its reason. */
export const sinkDefaults = {
  /** About an hour of 50 checks a minute at ~1 KiB each: bounded memory while a disk is full. */
  maxPending: 5_000,
  /** A few pages of WAL: fits in the first space that is freed. */
  retryBatch: 20,
  /** A freed disk is used within a second. */
  retryMs: 1_000,
  /**
   * At 1,000 results a second a commit per event-loop turn was ~300–1,000 commits a second and
   * SQLite's share of the agent's CPU ~16 %. 100 ms makes it 10 commits a second. Nothing sees a
   * result before its commit (onCommitted runs after COMMIT), so the only cost is that a process
   * killed outright loses the runs of its last 100 ms, as it loses the runs still in flight.
   */
  commitWindowMs: 100,
};

export function createResultSink(given: ResultSinkOptions): ResultSink {
  const options = { ...sinkDefaults, ...given };
  let pending: RunRecord[] = [];
  let timer: TimerHandle | undefined;
  /** Monotonic time of the last commit attempt (the start counts as one: its first runs come together). */
  let flushedAt = options.clock.monotonic();
  let problem: StoreProblem | undefined;
  /** Dropped from memory and not yet added to the store's dropped counter. */
  let droppedUncounted = 0;
  let closed = false;

  interface Committed {
    results: number;
    history: readonly HistoryEntry[];
    dropped: number;
  }

  function commit(batch: readonly RunRecord[]): Committed {
    // One pass: the results to upload, and the history of the checks still kept (keepsHistoryOf).
    const keeps = options.keepsHistoryOf;
    const results: WireResult[] = [];
    const history: HistoryEntry[] = [];
    for (const r of batch) {
      if (r.result !== undefined) results.push(r.result);
      if (keeps === undefined || keeps(r.history.check_guid)) history.push(r.history);
    }
    const countDropped = droppedUncounted;
    let dropped: number;
    try {
      dropped = transaction(options.db, () => {
        options.outbox.insert(results);
        options.history.insert(history);
        if (countDropped > 0) addDropped(options.db, countDropped);
        return options.outbox.enforceBound();
      });
    } catch (error) {
      // The insert counted rows the rollback took back.
      options.outbox.recount();
      throw error;
    }
    droppedUncounted -= countDropped;
    return { results: results.length, history, dropped: dropped + countDropped };
  }

  /** Tells everyone waiting for a committed batch, after the commit and outside its retry. */
  function announce(batch: readonly RunRecord[], committed: Committed): void {
    try {
      options.onCommitted(committed);
    } catch (error) {
      options.onCallbackError?.(error);
    }
    for (const record of batch) {
      try {
        record.committed?.();
      } catch (error) {
        options.onCallbackError?.(error);
      }
    }
  }

  function flush(): void {
    timer?.cancel();
    timer = undefined;
    flushedAt = options.clock.monotonic();
    while (pending.length > 0) {
      const size = problem === undefined ? pending.length : Math.min(options.retryBatch, pending.length);
      const batch = pending.slice(0, size);
      let committed: Committed;
      try {
        committed = commit(batch);
      } catch (error) {
        problem = {
          kind: isDiskFull(error) ? 'disk-full' : 'write-failed',
          waiting: pending.length,
          dropped: droppedUncounted,
          detail: error instanceof Error ? error.message : String(error),
        };
        options.onProblem?.(problem, error);
        if (!closed) timer = options.clock.setTimer(options.retryMs, flush);
        return;
      }
      pending = pending.slice(size);
      if (problem !== undefined) {
        problem = { ...problem, waiting: pending.length };
        if (pending.length === 0) {
          const over = problem;
          problem = undefined;
          options.onRecovered?.(over);
        }
      }
      announce(batch, committed);
    }
  }

  return {
    add(record) {
      pending.push(record);
      if (pending.length > options.maxPending) {
        const excess = pending.length - options.maxPending;
        pending = pending.slice(excess);
        droppedUncounted += excess;
      }
      // While commits fail, the retry timer commits; adding must not hammer a full disk.
      if (problem !== undefined) {
        problem = { ...problem, waiting: pending.length, dropped: droppedUncounted };
        return;
      }
      // A result after a quiet window (an agent at rest: 20 checks a minute) is committed at once:
      // nothing would share its commit, and waiting for the window would wake the process once
      // more for every run (issue 26). Under load the results of one window still share a commit.
      if (pending.length >= options.maxBatch) flush();
      else if (timer === undefined && options.clock.monotonic() - flushedAt > options.commitWindowMs) flush();
      else timer ??= options.clock.setTimer(options.commitWindowMs, flush);
    },
    flush,
    pending: () => pending.length,
    problem: () => problem,
    close() {
      closed = true;
      timer?.cancel();
      timer = undefined;
      return { unsaved: pending.length, dropped: droppedUncounted };
    },
  };
}

/** The one line the window, `status --json` and the log show for a store problem. */
export function describeStoreProblem(problem: StoreProblem, dataDir: string): string {
  const waiting = `${problem.waiting} result${problem.waiting === 1 ? ' is' : 's are'} waiting in memory`;
  const dropped = problem.dropped > 0 ? ` (${problem.dropped} older ones dropped)` : '';
  if (problem.kind === 'disk-full') return `the disk holding ${dataDir} is full: ${waiting}${dropped}; free space`;
  return `results cannot be saved in ${dataDir} (${problem.detail}): ${waiting}${dropped}; check the disk and the folder's permissions`;
}
