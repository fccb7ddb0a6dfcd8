// Telling a suspend/resume or a clock step apart from ordinary timer lateness. Both clocks are
// read together: their difference (wall minus monotonic) only moves when the wall clock is
// stepped or the machine slept with the monotonic clock standing still (Linux, macOS); a timer
// that fires far later than asked means the process itself was stopped or asleep (a monotonic
// clock that counts the sleep, as on Windows).
import type { Clock } from '../base/clock.ts';

export type ClockJump =
  /** The wall clock moved against the monotonic one by ms (positive: forward, as after a sleep). */
  | { kind: 'wall-step'; ms: number }
  /** A timer fired ms later than it asked for: the process did not run meanwhile. */
  | { kind: 'stalled'; ms: number }
  /** The operating system said the machine woke up (Electron powerMonitor `resume`). */
  | { kind: 'resume' };

/** Wall minus monotonic: constant while neither clock jumps. */
export const clockOffset = (clock: Clock): number => clock.now() - clock.monotonic();

export function detectJump(input: {
  offsetBefore: number;
  offsetNow: number;
  lateMs: number;
  thresholdMs: number;
}): ClockJump | undefined {
  const step = input.offsetNow - input.offsetBefore;
  if (Math.abs(step) > input.thresholdMs) return { kind: 'wall-step', ms: step };
  if (input.lateMs > input.thresholdMs) return { kind: 'stalled', ms: input.lateMs };
  return undefined;
}

/**
 * Whether the machine may just have woken up (its network still coming back). A wall clock
 * stepped backwards is a correction, never a sleep.
 */
export const mayHaveSlept = (jump: ClockJump): boolean => jump.kind !== 'wall-step' || jump.ms > 0;

/** One line for the log. */
export function describeJump(jump: ClockJump): string {
  switch (jump.kind) {
    case 'resume':
      return 'the machine woke up';
    case 'stalled':
      return `the agent did not run for ${Math.round(jump.ms / 1000)} s (the machine slept or the process was stopped)`;
    case 'wall-step':
      return `the wall clock jumped ${jump.ms > 0 ? 'forward' : 'back'} by ${Math.round(Math.abs(jump.ms) / 1000)} s (a sleep or a clock change)`;
  }
}
