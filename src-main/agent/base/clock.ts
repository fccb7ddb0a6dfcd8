// Time as a dependency: the scheduler, loops and outage tracking take a Clock, so tests drive
// time by hand instead of waiting (tests never assert wall time).
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Wall-clock milliseconds since the epoch, for timestamps people and the server read. */
  now(): number;
  /** Monotonic milliseconds, for intervals and deadlines that must not jump with the wall clock. */
  monotonic(): number;
  setTimer(delayMs: number, fn: () => void): TimerHandle;
}

/**
 * The longest delay Node's setTimeout honours (2^31 - 1 ms, about 24.8 days). A longer one is
 * replaced by 1 ms with a TimeoutOverflowWarning: a 30-day check interval would spin its timer.
 */
export const maxTimerDelayMs = 2_147_483_647;

/** The platform timer functions a Clock sits on: Node's, or a test's imitation of them. */
export interface TimerPrimitives<H> {
  now(): number;
  monotonic(): number;
  setTimeout(fn: () => void, delayMs: number): H;
  clearTimeout(handle: H): void;
}

/**
 * A Clock over platform timers whose every delay is clamped to what the platform honours: a
 * longer wait is chained in steps, measured on the monotonic clock, so it still ends on time.
 */
export function clockFrom<H>(timers: TimerPrimitives<H>): Clock {
  return {
    now: () => timers.now(),
    monotonic: () => timers.monotonic(),
    setTimer(delayMs, fn) {
      const delay = Number.isNaN(delayMs) ? 0 : Math.max(0, delayMs);
      if (delay <= maxTimerDelayMs) {
        const handle = timers.setTimeout(fn, delay);
        return { cancel: () => timers.clearTimeout(handle) };
      }
      // Infinity ("never") waits in steps as well, one wake-up every 24.8 days.
      const end = timers.monotonic() + delay;
      const step = (): void => {
        const left = end - timers.monotonic();
        handle =
          left > maxTimerDelayMs ? timers.setTimeout(step, maxTimerDelayMs) : timers.setTimeout(fn, Math.max(0, left));
      };
      let handle = timers.setTimeout(step, maxTimerDelayMs);
      return { cancel: () => timers.clearTimeout(handle) };
    },
  };
}

export const systemClock: Clock = clockFrom<ReturnType<typeof setTimeout>>({
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fn, delayMs) => setTimeout(fn, delayMs),
  clearTimeout: (handle) => clearTimeout(handle),
});

/**
 * The delay to the next whole multiple of periodMs on the monotonic clock. Periodic background
 * tasks (the load sample, the clock watch, the key file poll, the rollups) wait on this shared grid instead of
 * periodMs from their own last run, so tasks with the same period fire in one wake-up of the
 * process instead of one each: an agent at rest sleeps between them (issue 26).
 */
export function untilNextTick(clock: Clock, periodMs: number): number {
  if (!(periodMs > 0) || !Number.isFinite(periodMs)) return periodMs;
  const delay = periodMs - (clock.monotonic() % periodMs);
  // Just past a tick (a timer that fired a hair early) waits for the next one, never ~0 ms.
  return delay < 1 ? delay + periodMs : delay;
}

/** Resolves after delayMs on the given clock, or at once when the signal aborts. */
export function sleep(clock: Clock, delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      timer.cancel();
      resolve();
    };
    const timer = clock.setTimer(delayMs, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
