// What the scheduler offers its callers and asks of them; its workings are in scheduler.ts.
import type { Clock } from '../base/clock.ts';
import type { Sharing } from './grid.ts';
import type { LagCounts } from './lag.ts';

export interface Job extends Sharing {
  guid: string;
  /** interval_sec of the check, in ms: the aggregate interval when monitors share it. */
  intervalMs: number;
}

/** What the scheduler hands to the runner for one run. */
export interface RunTicket {
  guid: string;
  /** The grid time this run was due at (scheduler time, epoch ms). */
  dueAt: number;
  /** When it actually started (scheduler time); startedAt - dueAt is the schedule lag. */
  startedAt: number;
  /** The wall-clock time the run started: its ran_at. */
  ranAt: number;
  signal: AbortSignal;
}

export interface SchedulerStats {
  executed: number;
  /** Runs not started because the previous run of the check was still going. */
  skippedOverlap: number;
  /** Runs not started because the concurrency cap kept them waiting past their next due time. */
  skippedBacklog: number;
  /**
   * Runs that started only once a slot under the concurrency cap came free: their wait is part of
   * the schedule lag (the rest of it is the timer and the event loop firing late).
   */
  startedAfterWait: number;
  running: number;
  /** The cap on runs at once as last read before starting runs (SchedulerOptions.cap), or the concurrency. */
  cap: number;
  waiting: number;
  scheduled: number;
}

export interface SchedulerOptions {
  clock: Clock;
  /** At most this many runs at once. */
  concurrency: number;
  /**
   * The cap right now, read before runs start; at most `concurrency` counts. Absent: always
   * `concurrency`. The agent's follows the probe thread's load (runs/run-cap.ts).
   */
  cap?: () => number;
  /** New checks first run within this window (spread by guid), not over their whole interval. */
  startupSpreadMs: number;
  /** A clock jump or timer lateness beyond this rebases the grid on now (agent defaults). */
  clockJumpThresholdMs?: number;
  /** Runs due within this many ms of a firing timer start with it (agent defaults, runBatchMs). */
  batchMs?: number;
  run: (ticket: RunTicket) => Promise<void>;
  onRunError: (guid: string, error: unknown) => void;
}

export interface Scheduler {
  /** Adds a check or applies a new interval or sharing; a definition change needs nothing (read at run time). */
  upsert(job: Job): void;
  /** Stops a check at once: no further run starts (one in flight finishes). */
  remove(guid: string): void;
  has(guid: string): boolean;
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  /**
   * The machine woke up or the clock was stepped: every check continues at its next grid point
   * from now; runs missed meanwhile are not owed. Seen here too when the timer fires.
   */
  clockJumped(): void;
  stats(): SchedulerStats;
  /** The lag of every run started (start minus due, ms) as running totals: the live counters, read only. */
  lag(): LagCounts;
  /** Runs a second the checks ask for (each check once per period), paused or not. */
  runsPerSecond(): number;
  /** Stops starting runs; resolves when the runs in flight are done (or aborted after graceMs). */
  stop(graceMs: number): Promise<void>;
}
