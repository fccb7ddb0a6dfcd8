// Timer delays beyond Node's 24.8-day limit (issue 10 §4): clamped, never spinning.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clockFrom, maxTimerDelayMs, systemClock, type Clock } from '../../../src-main/agent/base/clock.ts';
import { startLoop } from '../../../src-main/agent/base/loop.ts';
import { createScheduler } from '../../../src-main/agent/schedule/scheduler.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';

const day = 86_400_000;

/**
 * Node's setTimeout as the platform behaves, on a fake clock: a delay over the limit becomes
 * 1 ms with a TimeoutOverflowWarning. Stops after a bound so a spinning timer cannot hang a test.
 */
function nodeLikeTimers(fake: FakeClock) {
  const seen = { calls: 0, fired: 0, overflows: 0 };
  const clock = clockFrom<{ cancel(): void }>({
    now: () => fake.now(),
    monotonic: () => fake.monotonic(),
    setTimeout(fn, delayMs) {
      seen.calls++;
      if (seen.calls > 10_000) return { cancel: () => undefined };
      if (delayMs > maxTimerDelayMs) seen.overflows++;
      return fake.setTimer(delayMs > maxTimerDelayMs ? 1 : delayMs, () => {
        seen.fired++;
        fn();
      });
    },
    clearTimeout: (handle) => handle.cancel(),
  });
  return { clock, seen };
}

/** Counts the timers a clock user sets and how often they fire. */
function counting(clock: Clock) {
  const seen = { fired: 0 };
  const wrapped: Clock = { ...clock, setTimer: (delayMs, fn) => clock.setTimer(delayMs, () => (seen.fired++, fn())) };
  return { clock: wrapped, seen };
}

const realSetTimeout = globalThis.setTimeout;

/**
 * Records every delay handed to Node's setTimeout (the timers still run for real). Node replaces a
 * delay over maxTimerDelayMs by 1 ms with a TimeoutOverflowWarning, so "every delay within the
 * limit" is exactly "no warning and no spinning timer", and needs no waiting to be seen.
 * `longWait` resolves once a wait of more than a day is handed to Node: the positive signal that
 * the clock user has gone to sleep.
 */
function recordNodeTimers() {
  const delays: number[] = [];
  let sawLong = (): void => undefined;
  const longWait = new Promise<void>((resolve) => (sawLong = resolve));
  vi.spyOn(globalThis, 'setTimeout').mockImplementation((fn: () => void, delayMs?: number) => {
    delays.push(delayMs ?? 0);
    if ((delayMs ?? 0) > day) sawLong();
    return realSetTimeout(fn, delayMs);
  });
  return { delays, longWait };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('timer delays beyond 24.8 days', () => {
  it('a check with a 30-day interval fires a bounded number of times (fake clock with Node timer semantics)', async () => {
    const fake = createFakeClock();
    const { clock, seen } = nodeLikeTimers(fake);
    let runs = 0;
    const scheduler = createScheduler({
      clock,
      concurrency: 4,
      startupSpreadMs: 1000,
      onRunError: () => undefined,
      run: () => Promise.resolve((runs++, undefined)),
    });
    scheduler.upsert({ guid: 'monthly', intervalMs: 30 * day });
    for (let d = 0; d < 95; d++) await fake.advance(day);
    expect(seen.overflows).toBe(0);
    expect(seen.fired).toBeLessThan(20);
    // The first run, then the grid: 30-day points in 95 days.
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(4);
    await scheduler.stop(0);
  });

  it('a 30-day wait still ends on time when chained', async () => {
    const fake = createFakeClock();
    const { clock } = nodeLikeTimers(fake);
    let firedAt: number | undefined;
    clock.setTimer(30 * day, () => (firedAt = fake.monotonic()));
    for (let d = 0; d < 31; d++) await fake.advance(day);
    expect(firedAt).toBe(30 * day);
  });

  it('the scheduler on the real clock hands Node no delay over its limit (no TimeoutOverflowWarning, no spinning timer)', async () => {
    const node = recordNodeTimers();
    const { clock, seen } = counting(systemClock);
    let runs = 0;
    const scheduler = createScheduler({
      clock,
      concurrency: 4,
      startupSpreadMs: 1,
      onRunError: () => undefined,
      run: () => Promise.resolve((runs++, undefined)),
    });
    scheduler.upsert({ guid: 'monthly', intervalMs: 30 * day });
    await node.longWait;
    expect(Math.max(...node.delays)).toBeLessThanOrEqual(maxTimerDelayMs);
    expect(runs).toBe(1);
    // The first run's timer, then the long wait.
    expect(seen.fired).toBeLessThanOrEqual(2);
    await scheduler.stop(0);
  });

  it('a loop asking for a 30-day wait hands Node no delay over its limit, and does not run again', async () => {
    const node = recordNodeTimers();
    let runs = 0;
    const loop = startLoop({
      clock: systemClock,
      onError: () => undefined,
      fallbackDelayMs: 1000,
      run: () => Promise.resolve((runs++, 30 * day)),
    });
    await node.longWait;
    expect(Math.max(...node.delays)).toBeLessThanOrEqual(maxTimerDelayMs);
    expect(runs).toBe(1);
    await loop.stop();
  });
});
