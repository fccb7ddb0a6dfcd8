// A hand-driven Clock: time moves only when a test calls advance(), firing due timers in order.
import type { Clock, TimerHandle } from '../../src-main/agent/clock.ts';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export interface FakeClock extends Clock {
  /** Moves time forward by ms, running every timer that falls due, and lets promises settle. */
  advance(ms: number): Promise<void>;
  pending(): number;
}

export function createFakeClock(startMs = Date.parse('2026-11-21T10:00:00.000Z')): FakeClock {
  let now = 0;
  let seq = 0;
  const timers: Timer[] = [];
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    now: () => startMs + now,
    monotonic: () => now,
    setTimer(delayMs: number, fn: () => void): TimerHandle {
      const timer: Timer = { at: now + Math.max(0, delayMs), seq: seq++, fn, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
    pending: () => timers.filter((t) => !t.cancelled).length,
    async advance(ms: number) {
      const target = now + ms;
      await settle();
      for (;;) {
        const due = timers
          .filter((t) => !t.cancelled && t.at <= target)
          .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
        if (due === undefined) break;
        timers.splice(timers.indexOf(due), 1);
        now = Math.max(now, due.at);
        due.fn();
        await settle();
      }
      now = target;
      await settle();
    },
  };
}
