// Schedule lag (schedule/lag.ts): the fixed histogram and its percentile, then the scheduler's own
// figures on the fake clock — timers that fire late and runs held behind the concurrency cap.
import { describe, expect, it } from 'vitest';
import { lagBoundMs, lagPercentile, newLagCounts, recordLag } from '../../../src-main/agent/schedule/lag.ts';
import { createScheduler, type RunTicket } from '../../../src-main/agent/schedule/scheduler.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';

const countsOf = (lags: number[]) => {
  const counts = newLagCounts();
  for (const lag of lags) recordLag(counts, lag);
  return counts;
};
const repeat = (n: number, lag: number): number[] => Array.from({ length: n }, () => lag);

describe('lagPercentile', () => {
  const cases: { name: string; lags: number[]; p99: number | null }[] = [
    { name: 'no run started', lags: [], p99: null },
    { name: 'every run on time', lags: repeat(500, 0), p99: 0 },
    { name: 'one late run in a hundred stays below p99', lags: [...repeat(99, 0), 40], p99: 0 },
    { name: 'two late runs in a hundred are p99', lags: [...repeat(98, 0), 40, 40], p99: 40 },
    { name: 'fractions count as the whole ms below', lags: [...repeat(90, 2.2), ...repeat(10, 17.9)], p99: 17 },
    { name: 'a run started early (clock step) counts as on time', lags: repeat(10, -5), p99: 0 },
    { name: 'a second or more reads as the bound', lags: [...repeat(50, 3), ...repeat(50, 7_500)], p99: lagBoundMs },
  ];
  for (const c of cases) it(c.name, () => expect(lagPercentile(countsOf(c.lags), undefined, 99)).toBe(c.p99));

  it('counts only the runs between two copies of the totals, also across a wrapped counter', () => {
    const first = countsOf([...repeat(1_000, 50)]);
    const last = first.slice();
    for (const lag of repeat(100, 3)) recordLag(last, lag);
    expect(lagPercentile(last, first, 99)).toBe(3);
    // A bucket that passed 2^32 since the first copy.
    first[9] = 0xffff_fff0;
    last[9] = 0x10;
    expect(lagPercentile(last, first, 100)).toBe(9);
  });
});

/** A scheduler whose runs last durationMs of fake time, with every ticket kept. */
function setup(clock: FakeClock, durationMs: number, concurrency: number) {
  const tickets: RunTicket[] = [];
  const scheduler = createScheduler({
    clock,
    concurrency,
    startupSpreadMs: 5000,
    onRunError: () => undefined,
    run: async (ticket) => {
      tickets.push(ticket);
      await new Promise<void>((resolve) => clock.setTimer(durationMs, resolve));
    },
  });
  return { scheduler, tickets };
}

async function stop(clock: FakeClock, scheduler: { stop(graceMs: number): Promise<void> }): Promise<void> {
  const stopping = scheduler.stop(60_000);
  await clock.advance(60_000);
  await stopping;
}

describe('scheduler lag', () => {
  it('is 0 for runs started when due, and the lateness of a timer that fired late', async () => {
    const clock = createFakeClock(0);
    const { scheduler, tickets } = setup(clock, 10, 10);
    scheduler.upsert({ guid: 'a', intervalMs: 1000 });
    await clock.advance(10_000);
    expect(lagPercentile(scheduler.lag(), undefined, 100)).toBe(0);
    const before = scheduler.lag().slice();
    // The event loop held until 40 ms past the next due time: that run's timer fires 40 ms late.
    const nextDue = (tickets.at(-1)?.dueAt ?? 0) + 1000;
    await clock.stall(nextDue + 40 - clock.monotonic());
    expect(lagPercentile(scheduler.lag(), before, 100)).toBe(40);
    expect(scheduler.lag()[40]).toBe(1);
    await stop(clock, scheduler);
  });

  it('counts the wait behind the concurrency cap, run by run, as the tickets show it', async () => {
    const clock = createFakeClock(0);
    const { scheduler, tickets } = setup(clock, 300, 2);
    for (let i = 0; i < 12; i++) scheduler.upsert({ guid: `c${i}`, intervalMs: 4_000 });
    await clock.advance(30_000);
    const exact = tickets.map((t) => t.startedAt - t.dueAt);
    expect(Math.max(...exact)).toBeGreaterThan(100);
    expect(Math.max(...exact)).toBeLessThan(lagBoundMs);
    expect(scheduler.lag().reduce((a, b) => a + b, 0)).toBe(scheduler.stats().executed);
    expect(scheduler.lag()).toEqual(countsOf(exact));
    const sorted = [...exact].sort((a, b) => a - b);
    expect(lagPercentile(scheduler.lag(), undefined, 99)).toBe(
      Math.min(lagBoundMs, Math.floor(sorted[Math.ceil(0.99 * sorted.length) - 1] ?? 0)),
    );
    await stop(clock, scheduler);
  });
});
