// Notices that the machine slept or its clock was stepped (told by the OS, or seen by comparing
// the clocks every few seconds), tells the scheduler, and opens a short grace period after a
// wake-up: the network takes seconds to come back, so a run that got nothing back then says
// nothing about its target.
import { untilNextTick, type Clock, type TimerHandle } from '../base/clock.ts';
import { clockOffset, detectJump, mayHaveSlept, type ClockJump } from './clock-jump.ts';

export interface WakeWatchOptions {
  clock: Clock;
  /** A clock jump (or timer lateness) larger than this is a sleep or a clock change. */
  thresholdMs: number;
  /** After a wake-up, failures with nothing back count as offline for this long. */
  graceMs: number;
  /** How often the clocks are compared when nothing else asks. */
  checkEveryMs: number;
  /** Told once per jump, whoever saw it first: the scheduler rebases its grid on it. */
  onJump: (jump: ClockJump) => void;
}

export interface WakeWatch {
  /** A jump the OS reported (Electron powerMonitor `resume`) or one seen elsewhere. */
  clockJumped(jump: ClockJump): void;
  /** True during the grace period after a wake-up; compares the clocks first, so it is never stale. */
  inWakeGrace(): boolean;
  stop(): void;
}

export function createWakeWatch(options: WakeWatchOptions): WakeWatch {
  const { clock } = options;
  let offset = clockOffset(clock);
  let graceEndsAt = -Infinity; // monotonic
  let timer: TimerHandle | undefined;
  let expectedAt = 0;
  let stopped = false;

  function jumped(jump: ClockJump): void {
    offset = clockOffset(clock);
    if (mayHaveSlept(jump)) graceEndsAt = clock.monotonic() + options.graceMs;
    options.onJump(jump);
  }

  /** Compares the clocks; lateMs is how late the watch's own timer fired (0 when not asked by it). */
  function check(lateMs: number): void {
    const now = clockOffset(clock);
    const jump = detectJump({ offsetBefore: offset, offsetNow: now, lateMs, thresholdMs: options.thresholdMs });
    if (jump !== undefined) jumped(jump);
    // Slow drift (NTP slewing) is followed here, never mistaken for a jump later.
    else offset = now;
  }

  function arm(): void {
    // On the shared grid: the clock watch wakes the process together with the load sample.
    const delay = untilNextTick(clock, options.checkEveryMs);
    expectedAt = clock.monotonic() + delay;
    timer = clock.setTimer(delay, () => {
      if (stopped) return;
      check(clock.monotonic() - expectedAt);
      arm();
    });
  }
  arm();

  return {
    clockJumped: jumped,
    inWakeGrace() {
      if (!stopped) check(0);
      return clock.monotonic() < graceEndsAt;
    },
    stop() {
      stopped = true;
      timer?.cancel();
    },
  };
}
