// The wake watch (issue 10 §2): jumps seen or reported, and the grace period after a wake-up.
import { describe, expect, it } from 'vitest';
import type { ClockJump } from '../../../src-main/agent/schedule/clock-jump.ts';
import { createWakeWatch } from '../../../src-main/agent/schedule/wake.ts';
import { createFakeClock } from '../../support/fake-clock.ts';

const hour = 3_600_000;

function setup() {
  const clock = createFakeClock();
  const jumps: ClockJump[] = [];
  const watch = createWakeWatch({
    clock,
    thresholdMs: 5000,
    graceMs: 30_000,
    checkEveryMs: 2000,
    onJump: (j) => jumps.push(j),
  });
  return { clock, jumps, watch };
}

describe('wake watch', () => {
  it('a wall clock an hour ahead (Linux/macOS sleep) is seen at the next check and opens the grace period', async () => {
    const { clock, jumps, watch } = setup();
    await clock.advance(10_000);
    expect(watch.inWakeGrace()).toBe(false);
    await clock.stepWall(hour);
    await clock.advance(2000);
    expect(jumps).toEqual([{ kind: 'wall-step', ms: hour }]);
    expect(watch.inWakeGrace()).toBe(true);
    await clock.advance(30_000);
    expect(watch.inWakeGrace()).toBe(false);
    expect(jumps).toHaveLength(1);
    watch.stop();
  });

  it('asking for the grace right after waking compares the clocks first', async () => {
    const { clock, jumps, watch } = setup();
    await clock.advance(500);
    await clock.stepWall(hour);
    expect(watch.inWakeGrace()).toBe(true);
    expect(jumps).toHaveLength(1);
    await clock.advance(2000);
    expect(jumps).toHaveLength(1);
    watch.stop();
  });

  it('a timer an hour late (the process did not run) is a wake-up too', async () => {
    const { clock, jumps, watch } = setup();
    await clock.advance(3000);
    await clock.stall(hour);
    expect(jumps).toHaveLength(1);
    expect(jumps[0]?.kind).toBe('stalled');
    expect(watch.inWakeGrace()).toBe(true);
    watch.stop();
  });

  it('a wall clock stepped back is reported but opens no grace period', async () => {
    const { clock, jumps, watch } = setup();
    await clock.advance(3000);
    await clock.stepWall(-hour);
    await clock.advance(2000);
    expect(jumps).toEqual([{ kind: 'wall-step', ms: -hour }]);
    expect(watch.inWakeGrace()).toBe(false);
    watch.stop();
  });

  it('slow drift (NTP slewing) is followed, never taken for a jump', async () => {
    const { clock, jumps, watch } = setup();
    for (let i = 0; i < 100; i++) {
      await clock.stepWall(100);
      await clock.advance(2000);
    }
    expect(jumps).toEqual([]);
    expect(watch.inWakeGrace()).toBe(false);
    watch.stop();
  });

  it('a resume reported by the OS opens the grace period at once; stop leaves no timer', () => {
    const { clock, jumps, watch } = setup();
    watch.clockJumped({ kind: 'resume' });
    expect(jumps).toEqual([{ kind: 'resume' }]);
    expect(watch.inWakeGrace()).toBe(true);
    watch.stop();
    expect(clock.pending()).toBe(0);
  });
});
