// A hand-driven Clock: time moves only when a test calls advance(), firing due timers in order.
import type { Clock, TimerHandle } from '../../src-main/agent/base/clock.ts';

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
  /**
   * Steps the wall clock only (an NTP step; also a suspend on Linux and macOS, where the
   * monotonic clock and timers stand still while the machine sleeps).
   */
  stepWall(ms: number): Promise<void>;
  /**
   * Both clocks move on by ms while no timer runs (a stopped process; a suspend where the
   * monotonic clock counts the sleep); then every overdue timer fires at once, late.
   */
  stall(ms: number): Promise<void>;
}

export function createFakeClock(startMs = Date.parse('2026-11-21T10:00:00.000Z')): FakeClock {
  let now = 0;
  let wallShift = 0;
  let seq = 0;
  const timers: Timer[] = [];
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
  };
  async function advance(ms: number): Promise<void> {
    const target = now + ms;
    await settle();
    for (;;) {
      const due = timers.filter((t) => !t.cancelled && t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (due === undefined) break;
      timers.splice(timers.indexOf(due), 1);
      now = Math.max(now, due.at);
      due.fn();
      await settle();
    }
    now = target;
    await settle();
  }
  return {
    now: () => startMs + wallShift + now,
    monotonic: () => now,
    setTimer(delayMs: number, fn: () => void): TimerHandle {
      const timer: Timer = { at: now + Math.max(0, delayMs), seq: seq++, fn, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
    pending: () => timers.filter((t) => !t.cancelled).length,
    advance,
    async stepWall(ms: number) {
      wallShift += ms;
      await settle();
    },
    async stall(ms: number) {
      now += ms;
      await advance(0);
    },
  };
}
