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

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimer(delayMs, fn) {
    const handle = setTimeout(fn, Math.max(0, delayMs));
    return { cancel: () => clearTimeout(handle) };
  },
};

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
