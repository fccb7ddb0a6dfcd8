// One timer over a priority queue runs every check on its grid. A run still in flight when the
// next is due is skipped and counted; a global cap bounds how many run at once.
import type { Clock, TimerHandle } from '../clock.ts';
import { MinHeap } from './heap.ts';
import { firstRunAt, gridAfterFirstRun, nextGridPoint, phaseMs } from './grid.ts';

export interface Job {
  guid: string;
  intervalMs: number;
}

/** What the scheduler hands to the runner for one run. */
export interface RunTicket {
  guid: string;
  /** The grid time this run was due at (epoch ms). */
  dueAt: number;
  /** When it actually started (epoch ms); startedAt - dueAt is the schedule lag. */
  startedAt: number;
  signal: AbortSignal;
}

export interface SchedulerStats {
  executed: number;
  /** Runs not started because the previous run of the check was still going. */
  skippedOverlap: number;
  /** Runs not started because the concurrency cap kept them waiting past their next due time. */
  skippedBacklog: number;
  running: number;
  waiting: number;
  scheduled: number;
}

export interface SchedulerOptions {
  clock: Clock;
  /** At most this many runs at once. */
  concurrency: number;
  /** New checks first run within this window (spread by guid), not over their whole interval. */
  startupSpreadMs: number;
  run: (ticket: RunTicket) => Promise<void>;
  onRunError: (guid: string, error: unknown) => void;
}

interface Entry {
  job: Job;
  phase: number;
  /** Bumped when the entry is rescheduled or removed: stale heap items are ignored. */
  token: number;
  removed: boolean;
  inFlight: boolean;
  waiting: boolean;
}

interface Slot {
  due: number;
  entry: Entry;
  token: number;
  /** The one-off first run of a new check, off the grid. */
  first: boolean;
}

export interface Scheduler {
  /** Adds a check or applies a new interval; a definition change needs nothing (read at run time). */
  upsert(job: Job): void;
  /** Stops a check at once: no further run starts (one in flight finishes). */
  remove(guid: string): void;
  has(guid: string): boolean;
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  stats(): SchedulerStats;
  /** Stops starting runs; resolves when the runs in flight are done (or aborted after graceMs). */
  stop(graceMs: number): Promise<void>;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { clock } = options;
  // Epoch time read through the monotonic clock: a wall-clock jump cannot shift the grid.
  const anchor = clock.now() - clock.monotonic();
  const now = (): number => anchor + clock.monotonic();
  const heap = new MinHeap<Slot>((a, b) => a.due < b.due || (a.due === b.due && a.token < b.token));
  const entries = new Map<string, Entry>();
  const waiting: { entry: Entry; due: number }[] = [];
  const abort = new AbortController();
  const stats = { executed: 0, skippedOverlap: 0, skippedBacklog: 0 };
  let running = 0;
  let timer: TimerHandle | undefined;
  let armedFor = Infinity;
  let paused = false;
  let stopped = false;
  let idle: (() => void) | undefined;
  let tokens = 0;
  // While fire() drains due slots it re-arms once at the end, not once per slot.
  let firing = false;

  function schedule(entry: Entry, due: number, first = false): void {
    entry.token = ++tokens;
    heap.push({ due, entry, token: entry.token, first });
    arm();
  }

  function arm(): void {
    if (paused || stopped || firing) return;
    let top = heap.peek();
    while (top !== undefined && (top.entry.removed || top.token !== top.entry.token)) {
      heap.pop();
      top = heap.peek();
    }
    if (top === undefined || top.due >= armedFor) return;
    timer?.cancel();
    armedFor = top.due;
    timer = clock.setTimer(top.due - now(), fire);
  }

  function fire(): void {
    timer = undefined;
    armedFor = Infinity;
    const t = now();
    firing = true;
    for (let top = heap.peek(); top !== undefined && top.due <= t; top = heap.peek()) {
      heap.pop();
      const { entry, due } = top;
      if (entry.removed || top.token !== entry.token) continue;
      // The grid goes on whatever happens to this run.
      const { intervalMs } = entry.job;
      schedule(entry, top.first ? gridAfterFirstRun(due, intervalMs, entry.phase) : nextGridPoint(due, intervalMs, entry.phase));
      if (entry.inFlight) stats.skippedOverlap++;
      else if (entry.waiting) stats.skippedBacklog++;
      else if (running < options.concurrency) start(entry, due);
      else {
        entry.waiting = true;
        waiting.push({ entry, due });
      }
    }
    firing = false;
    arm();
  }

  function start(entry: Entry, due: number): void {
    running++;
    stats.executed++;
    entry.inFlight = true;
    const ticket: RunTicket = { guid: entry.job.guid, dueAt: due, startedAt: now(), signal: abort.signal };
    options
      .run(ticket)
      .catch((error: unknown) => options.onRunError(entry.job.guid, error))
      .finally(() => {
        entry.inFlight = false;
        running--;
        startWaiting();
        if (running === 0) idle?.();
      });
  }

  function startWaiting(): void {
    while (running < options.concurrency && !paused && !stopped) {
      const next = waiting.shift();
      if (next === undefined) return;
      next.entry.waiting = false;
      if (!next.entry.removed) start(next.entry, next.due);
    }
  }

  return {
    upsert(job) {
      const existing = entries.get(job.guid);
      if (existing !== undefined && existing.job.intervalMs === job.intervalMs) return;
      if (existing !== undefined) {
        existing.job = job;
        existing.phase = phaseMs(job.guid, job.intervalMs);
        schedule(existing, nextGridPoint(now(), job.intervalMs, existing.phase));
        return;
      }
      const entry: Entry = { job, phase: phaseMs(job.guid, job.intervalMs), token: 0, removed: false, inFlight: false, waiting: false };
      entries.set(job.guid, entry);
      schedule(entry, firstRunAt(now(), job.guid, job.intervalMs, options.startupSpreadMs), true);
    },
    remove(guid) {
      const entry = entries.get(guid);
      if (entry === undefined) return;
      entry.removed = true;
      entries.delete(guid);
    },
    has: (guid) => entries.has(guid),
    pause() {
      paused = true;
      for (const w of waiting) w.entry.waiting = false;
      waiting.length = 0;
      timer?.cancel();
      timer = undefined;
      armedFor = Infinity;
    },
    resume() {
      if (!paused) return;
      paused = false;
      // Runs missed while paused are not owed: every check continues at its next grid point.
      heap.clear();
      for (const entry of entries.values()) schedule(entry, nextGridPoint(now(), entry.job.intervalMs, entry.phase));
      startWaiting();
    },
    get paused() {
      return paused;
    },
    stats: () => ({ ...stats, running, waiting: waiting.length, scheduled: entries.size }),
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
