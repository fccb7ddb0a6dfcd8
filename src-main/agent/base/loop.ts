// A background task that runs, sleeps for the delay it asks for, and runs again; it can be
// woken early (sync now, upload now) and stopped, which waits for the run in progress.
import { sleep, type Clock } from './clock.ts';

export interface Loop {
  /** Run as soon as possible: cuts the current wait short (a run in progress is not repeated twice). */
  trigger(): void;
  /** Stops after the run in progress, if any, has finished. */
  stop(): Promise<void>;
}

export interface LoopOptions {
  clock: Clock;
  /** Runs the task once and returns how long to wait before the next run. */
  run: (signal: AbortSignal) => Promise<number>;
  /** Delay before the first run. */
  initialDelayMs?: number;
  /** Called when run throws: a bug, logged, and the loop carries on after fallbackDelayMs. */
  onError: (error: unknown) => void;
  fallbackDelayMs: number;
}

export function startLoop(options: LoopOptions): Loop {
  const stopping = new AbortController();
  let wake = new AbortController();
  let triggered = false;
  // A function, not the property: the flag changes while this loop awaits.
  const stopped = (): boolean => stopping.signal.aborted;

  async function body(): Promise<void> {
    let delay = options.initialDelayMs ?? 0;
    while (!stopped()) {
      if (!triggered) await sleep(options.clock, delay, AbortSignal.any([stopping.signal, wake.signal]));
      if (stopped()) return;
      triggered = false;
      wake = new AbortController();
      try {
        delay = await options.run(stopping.signal);
      } catch (error) {
        options.onError(error);
        delay = options.fallbackDelayMs;
      }
    }
  }

  const done = body();
  return {
    trigger() {
      triggered = true;
      wake.abort();
    },
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
