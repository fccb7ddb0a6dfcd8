// One timer over a priority queue runs every check on its grid. A run still in flight when the
// next is due is skipped and counted; a global cap bounds how many run at once. The grid lives
// in epoch time read through the monotonic clock; when the two clocks part (a sleep, a clock
// step) or the timer fires far too late, the grid is rebased on now: no burst of missed runs.
import type { TimerHandle } from '../base/clock.ts';
import { agentDefaults } from '../defaults.ts';
import { clockOffset, detectJump } from './clock-jump.ts';
import { MinHeap, type HeapItem } from './heap.ts';
import { firstRunAt, gridAfterFirstRun, gridSlot, nextGridPoint, secondEnd } from './grid.ts';
import { newLagCounts, recordLag } from './lag.ts';
import type { Job, RunTicket, Scheduler, SchedulerOptions } from './scheduler-api.ts';

export type { Job, RunTicket, Scheduler, SchedulerOptions, SchedulerStats } from './scheduler-api.ts';

/**
 * One check on the grid, and its place in the heap. The job's fields it needs are copied in, not
 * the job and its grid slot kept as objects of their own: two objects fewer a check, ~0.8 MB at
 * 6,000 (heap snapshots, issue 26); and it is the heap's item itself (heap.ts).
 */
interface Entry extends HeapItem {
  readonly guid: string;
  intervalMs: number;
  /** Its grid slot (grid.ts gridSlot): the period between its runs and where in it they fall. */
  periodMs: number;
  phase: number;
  /** When its next run is due (scheduler time). */
  due: number;
  /** Bumped at each scheduling: of runs due at the same time, the one scheduled first starts first. */
  token: number;
  removed: boolean;
  inFlight: boolean;
  waiting: boolean;
  /** Its one-off first run is still ahead. */
  firstPending: boolean;
  /** The due time of its last slot, run or skipped (scheduler time); undefined after a rebase. */
  lastDue: number | undefined;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { clock } = options;
  const jumpThresholdMs = options.clockJumpThresholdMs ?? agentDefaults.clockJumpThresholdMs;
  const batchMs = options.batchMs ?? agentDefaults.runBatchMs;
  // Epoch time read through the monotonic clock: a wall-clock jump cannot shift the grid.
  let anchor = clockOffset(clock);
  const now = (): number => anchor + clock.monotonic();
  const heap = new MinHeap<Entry>((a, b) => a.due < b.due || (a.due === b.due && a.token < b.token));
  const entries = new Map<string, Entry>();
  const waiting: { entry: Entry; due: number }[] = [];
  const abort = new AbortController();
  const stats = { executed: 0, skippedOverlap: 0, skippedBacklog: 0, startedAfterWait: 0 };
  const lag = newLagCounts();
  let running = 0;
  let timer: TimerHandle | undefined;
  let armedFor = Infinity;
  let paused = false;
  let stopped = false;
  let idle: (() => void) | undefined;
  let tokens = 0;
  // While due slots are drained or every check is rescheduled, the timer is armed once at the end.
  let batching = false;
  // Summed again only after a check was added, moved or removed: read for every run.
  let demand: number | undefined = 0;
  const { cap } = options;
  let lastCap = options.concurrency;
  const slots =
    cap === undefined
      ? (): number => options.concurrency
      : (): number => (lastCap = Math.min(options.concurrency, cap()));

  /** Its next run at `due`; `first`: the one-off first run of a new check, off the grid. */
  function schedule(entry: Entry, due: number, first = false): void {
    entry.token = ++tokens;
    entry.firstPending = first;
    entry.due = due;
    heap.update(entry);
    arm();
  }

  /** Every check at its next slot from now: a first run still owed stays a first run. */
  function scheduleAllFromNow(): void {
    heap.clear();
    const t = now();
    batching = true;
    for (const entry of entries.values()) {
      entry.lastDue = undefined;
      if (entry.firstPending)
        schedule(entry, firstRunAt(t, entry.guid, entry.intervalMs, options.startupSpreadMs), true);
      else schedule(entry, nextGridPoint(t, entry.periodMs, entry.phase));
    }
    batching = false;
    arm();
  }

  function dropWaiting(): void {
    for (const w of waiting) w.entry.waiting = false;
    waiting.length = 0;
  }

  function arm(): void {
    if (paused || stopped || batching) return;
    const top = heap.peek();
    if (top === undefined || top.due >= armedFor) return;
    timer?.cancel();
    armedFor = top.due;
    timer = clock.setTimer(top.due - now(), fire);
  }

  function rebase(): void {
    anchor = clockOffset(clock);
    timer?.cancel();
    timer = undefined;
    armedFor = Infinity;
    // Runs queued behind the cap before the jump are stale now.
    dropWaiting();
    if (!paused && !stopped) scheduleAllFromNow();
  }

  function fire(): void {
    const late = now() - armedFor;
    timer = undefined;
    armedFor = Infinity;
    if (
      detectJump({
        offsetBefore: anchor,
        offsetNow: clockOffset(clock),
        lateMs: late,
        thresholdMs: jumpThresholdMs,
      }) !== undefined
    ) {
      rebase();
      return;
    }
    // Runs due a few ms from now start with the ones due now (early, never late): see runBatchMs.
    // Never in a whole second before their own: that second is the fleet's slot (grid.ts).
    const t = now();
    const horizon = t + batchMs;
    const thisSecondEnds = secondEnd(t);
    const limit = slots();
    batching = true;
    for (
      let entry = heap.peek();
      entry !== undefined && entry.due <= horizon && entry.due < thisSecondEnds;
      entry = heap.peek()
    ) {
      // The grid goes on whatever happens to this run: the entry moves to its next slot in the heap.
      const { due, periodMs, phase } = entry;
      entry.lastDue = due;
      schedule(
        entry,
        entry.firstPending ? gridAfterFirstRun(due, periodMs, phase) : nextGridPoint(due, periodMs, phase),
      );
      if (entry.inFlight) stats.skippedOverlap++;
      else if (entry.waiting) stats.skippedBacklog++;
      else if (running < limit) start(entry, due);
      else {
        entry.waiting = true;
        waiting.push({ entry, due });
      }
    }
    batching = false;
    arm();
  }

  function start(entry: Entry, due: number): void {
    running++;
    stats.executed++;
    entry.inFlight = true;
    const startedAt = now();
    recordLag(lag, startedAt - due);
    const ticket: RunTicket = { guid: entry.guid, dueAt: due, startedAt, ranAt: clock.now(), signal: abort.signal };
    options
      .run(ticket)
      .catch((error: unknown) => options.onRunError(entry.guid, error))
      .finally(() => {
        entry.inFlight = false;
        running--;
        startWaiting();
        if (running === 0) idle?.();
      });
  }

  function startWaiting(): void {
    if (waiting.length === 0) return;
    const limit = slots();
    while (running < limit && !paused && !stopped) {
      const next = waiting.shift();
      if (next === undefined) return;
      next.entry.waiting = false;
      if (next.entry.removed) continue;
      stats.startedAfterWait++;
      start(next.entry, next.due);
    }
  }

  /**
   * A new interval or a new share of the check: it moves to its new slot without an extra run —
   * at least half a period after its last run, as after a first run.
   */
  function move(entry: Entry, job: Job): void {
    const slot = gridSlot(job.guid, job.intervalMs, job);
    const same = entry.intervalMs === job.intervalMs && entry.periodMs === slot.periodMs && entry.phase === slot.phase;
    entry.intervalMs = job.intervalMs;
    if (same) return;
    entry.periodMs = slot.periodMs;
    entry.phase = slot.phase;
    demand = undefined;
    // A first run still ahead stays; the grid after it uses the new slot.
    if (entry.firstPending) return;
    const from = entry.lastDue === undefined ? now() : Math.max(now(), entry.lastDue + slot.periodMs / 2);
    schedule(entry, nextGridPoint(from, slot.periodMs, slot.phase));
  }

  return {
    upsert(job) {
      const existing = entries.get(job.guid);
      if (existing !== undefined) {
        move(existing, job);
        return;
      }
      const { periodMs, phase } = gridSlot(job.guid, job.intervalMs, job);
      const entry: Entry = {
        guid: job.guid,
        intervalMs: job.intervalMs,
        periodMs,
        phase,
        due: 0,
        heapAt: -1,
        token: 0,
        removed: false,
        inFlight: false,
        waiting: false,
        firstPending: true,
        lastDue: undefined,
      };
      entries.set(job.guid, entry);
      demand = undefined;
      schedule(entry, firstRunAt(now(), job.guid, job.intervalMs, options.startupSpreadMs), true);
    },
    remove(guid) {
      const entry = entries.get(guid);
      if (entry === undefined) return;
      entry.removed = true;
      entries.delete(guid);
      heap.remove(entry);
      demand = undefined;
    },
    has: (guid) => entries.has(guid),
    pause() {
      paused = true;
      dropWaiting();
      timer?.cancel();
      timer = undefined;
      armedFor = Infinity;
    },
    resume() {
      if (!paused) return;
      paused = false;
      // Runs missed while paused are not owed: every check continues at its next grid point.
      scheduleAllFromNow();
      startWaiting();
    },
    get paused() {
      return paused;
    },
    clockJumped: rebase,
    stats: () => ({ ...stats, running, cap: lastCap, waiting: waiting.length, scheduled: entries.size }),
    lag: () => lag,
    runsPerSecond() {
      if (demand === undefined) {
        demand = 0;
        for (const entry of entries.values()) demand += 1000 / entry.periodMs;
      }
      return demand;
    },
    async stop(graceMs) {
      stopped = true;
      timer?.cancel();
      waiting.length = 0;
      if (running === 0) return;
      const drained = new Promise<void>((resolve) => (idle = resolve));
      const grace = clock.setTimer(graceMs, () => abort.abort());
      await drained;
      grace.cancel();
    },
  };
}
