// The cap on runs at once follows the probe thread's load (runs/run-cap.ts): low while the thread
// is the bottleneck, full again once runs wait on their targets instead.
import { describe, expect, it } from 'vitest';
import { createRunCap, nextRunCap, runCapRule } from '../../../src-main/agent/runs/run-cap.ts';

const bounds = { most: 256, least: 64 };

describe('the cap on runs at once', () => {
  it('halves down to the busy cap while the probe thread is busy, and doubles back when it has time to spare', () => {
    expect(nextRunCap(256, 0.95, bounds)).toBe(128);
    expect(nextRunCap(128, 1, bounds)).toBe(64);
    expect(nextRunCap(64, 1, bounds)).toBe(64);
    expect(nextRunCap(64, 0.5, bounds)).toBe(128);
    expect(nextRunCap(128, 0.1, bounds)).toBe(256);
    expect(nextRunCap(256, 0, bounds)).toBe(256);
  });

  it('keeps its value while the thread is between spare and busy (no flapping)', () => {
    expect(nextRunCap(128, runCapRule.spareBelow, bounds)).toBe(128);
    expect(nextRunCap(128, (runCapRule.spareBelow + runCapRule.busyFrom) / 2, bounds)).toBe(128);
    expect(nextRunCap(128, runCapRule.busyFrom, bounds)).toBe(64);
  });

  it('is the full cap without a probe thread, and never above the full cap when that is small', () => {
    expect(nextRunCap(64, undefined, bounds)).toBe(256);
    expect(nextRunCap(10, 1, { most: 10, least: 64 })).toBe(10);
    expect(nextRunCap(10, 0, { most: 10, least: 64 })).toBe(10);
  });

  it('steps once a window, on the busy share the window measured', () => {
    let now = 0;
    const shares: (number | undefined)[] = [];
    let share: number | undefined = 1;
    const cap = createRunCap({
      bounds,
      now: () => now,
      busyShare: () => {
        shares.push(share);
        return share;
      },
    });
    // The first read opens a window (its share is since the thread started, not a window's).
    expect(cap()).toBe(256);
    now += runCapRule.windowMs - 1;
    expect(cap()).toBe(256);
    now += 1;
    expect(cap()).toBe(128);
    expect(cap()).toBe(128);
    now += runCapRule.windowMs;
    expect(cap()).toBe(64);
    // Runs now wait on slow targets: the thread idles and the cap is back within two windows.
    share = 0.2;
    now += runCapRule.windowMs;
    expect(cap()).toBe(128);
    now += runCapRule.windowMs;
    expect(cap()).toBe(256);
    // The thread ended: the full cap.
    share = undefined;
    now += runCapRule.windowMs;
    expect(cap()).toBe(256);
    // One share read per window, none between.
    expect(shares).toHaveLength(6);
  });
});
