// Shared checks (issue 10 §5): N monitors take turns, one run per interval_sec in aggregate.
import { describe, expect, it } from 'vitest';
import { effectiveInterval, gridSlot, hashGuid } from '../../../src-main/agent/schedule/grid.ts';
import { createScheduler, type Job, type RunTicket } from '../../../src-main/agent/schedule/scheduler.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';

const interval = 30_000;

function monitor(clock: FakeClock) {
  const tickets: RunTicket[] = [];
  const scheduler = createScheduler({
    clock,
    concurrency: 10,
    startupSpreadMs: 5000,
    onRunError: () => undefined,
    run: (ticket) => {
      tickets.push(ticket);
      return Promise.resolve();
    },
  });
  return { scheduler, tickets };
}

async function advanceInSteps(clock: FakeClock, total: number, step = 1000): Promise<void> {
  for (let t = 0; t < total; t += step) await clock.advance(step);
}

/** Grid runs only: the first run of a newly seen check is off the grid by design. */
const gridRuns = (tickets: RunTicket[]): number[] => tickets.slice(1).map((t) => t.dueAt);

describe("grid slot of a shared check: the server's own agent's formula, in whole seconds", () => {
  it.each([
    { guid: 'check-a', intervalSec: 10, count: 3, rank: 0, phaseSec: 13 },
    { guid: 'check-a', intervalSec: 10, count: 3, rank: 1, phaseSec: 23 },
    { guid: 'check-a', intervalSec: 10, count: 3, rank: 2, phaseSec: 3 },
    { guid: 'check-b', intervalSec: 60, count: 1, rank: 0, phaseSec: 16 },
  ])('$guid, interval $intervalSec, count $count, rank $rank: phase $phaseSec', (v) => {
    const slot = gridSlot(v.guid, v.intervalSec * 1000, { monitorCount: v.count, monitorRank: v.rank });
    expect(slot.periodMs).toBe(v.intervalSec * v.count * 1000);
    // The formula's whole second; the millisecond inside it is the guid's own, for every rank.
    expect(Math.floor(slot.phase / 1000)).toBe(v.phaseSec);
    expect(slot.phase % 1000).toBe(gridSlot(v.guid, v.intervalSec * 1000, {}).phase % 1000);
  });

  it("hashes the guid's UTF-8 bytes (FNV-1a, 32 bit)", () => {
    expect(hashGuid('check-a')).toBe(1455618733);
    expect(hashGuid('check-b')).toBe(1405285876);
    // "é" is two UTF-8 bytes (0xc3 0xa9), one UTF-16 unit: the bytes decide.
    let h = 0x811c9dc5;
    for (const byte of [0xc3, 0xa9]) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
    expect(hashGuid('é')).toBe(h);
  });

  it.each([
    { name: 'absent fields: 1 and 0', sharing: {}, period: interval },
    { name: 'count 0 counts as 1', sharing: { monitorCount: 0, monitorRank: 0 }, period: interval },
    { name: 'rank beyond the count wraps', sharing: { monitorCount: 2, monitorRank: 3 }, period: 2 * interval },
  ])('$name', ({ sharing, period }) => {
    const slot = gridSlot('g', interval, sharing);
    expect(slot.periodMs).toBe(period);
    expect(slot.phase % 1000).toBe(gridSlot('g', interval, {}).phase % 1000);
    expect(slot.phase).toBeLessThan(period);
    expect(effectiveInterval(interval, sharing)).toBe(period);
  });
});

describe('scheduler with shared checks', () => {
  it('three monitors sharing a check probe it once per interval in aggregate, each every 3 intervals', async () => {
    const clock = createFakeClock();
    const monitors = [0, 1, 2].map(() => monitor(clock));
    monitors.forEach((m, rank) =>
      m.scheduler.upsert({ guid: 'shared', intervalMs: interval, monitorCount: 3, monitorRank: rank }),
    );
    await advanceInSteps(clock, 20 * interval);
    for (const m of monitors) {
      const runs = gridRuns(m.tickets);
      expect(runs.length).toBeGreaterThanOrEqual(5);
      expect(new Set(runs.slice(1).map((t, i) => t - (runs[i] ?? 0)))).toEqual(new Set([3 * interval]));
    }
    const all = monitors.flatMap((m) => gridRuns(m.tickets)).sort((a, b) => a - b);
    expect(new Set(all.slice(1).map((t, i) => t - (all[i] ?? 0)))).toEqual(new Set([interval]));
    for (const t of all) expect((t - gridSlot('shared', interval, { monitorCount: 3 }).phase) % interval).toBe(0);
    for (const m of monitors) await m.scheduler.stop(0);
  });

  it('runs a shared check inside its slots: whole Unix seconds t where (t - phase) mod effective = 0', async () => {
    const clock = createFakeClock();
    const started: number[] = [];
    const scheduler = createScheduler({
      clock,
      concurrency: 10,
      startupSpreadMs: 5000,
      onRunError: () => undefined,
      run: () => {
        started.push(clock.now());
        return Promise.resolve();
      },
    });
    // check-a, interval 10 s, shared by 3, rank 1: the server's own agent runs it at phase 23 of 30 s.
    scheduler.upsert({ guid: 'check-a', intervalMs: 10_000, monitorCount: 3, monitorRank: 1 });
    await advanceInSteps(clock, 300_000, 500);
    const onGrid = started.slice(1);
    expect(onGrid.length).toBeGreaterThanOrEqual(9);
    const withinSecond = gridSlot('check-a', 10_000, {}).phase % 1000;
    for (const at of onGrid) {
      // Due runs may start a few ms early (runs due together are batched), never late here and
      // never before their slot's second (the batch stops at a whole second).
      const slot = Math.floor(at / 1000);
      expect(withinSecond - (at % 1000)).toBeLessThan(20);
      expect((((slot - 23) % 30) + 30) % 30).toBe(0);
    }
    await scheduler.stop(0);
  });

  it('a change of count or rank moves the check to its new slot without an extra run', async () => {
    const clock = createFakeClock();
    const { scheduler, tickets } = monitor(clock);
    const job: Job = { guid: 'g', intervalMs: interval };
    scheduler.upsert(job);
    await advanceInSteps(clock, 4 * interval);
    const lastRun = tickets.at(-1)?.dueAt ?? 0;
    const before = tickets.length;
    scheduler.upsert({ ...job, monitorCount: 4, monitorRank: 1 });
    await clock.advance(0);
    expect(tickets.length).toBe(before);
    await advanceInSteps(clock, 12 * interval);
    const moved = tickets.slice(before).map((t) => t.dueAt);
    const slot = gridSlot('g', interval, { monitorCount: 4, monitorRank: 1 });
    expect(moved.length).toBeGreaterThanOrEqual(2);
    for (const t of moved) expect((t - slot.phase) % slot.periodMs).toBe(0);
    // The first run in the new slot is at least half a period after the last one in the old.
    expect((moved[0] ?? 0) - lastRun).toBeGreaterThanOrEqual(slot.periodMs / 2);
    await scheduler.stop(0);
  });

  it('the same count and rank again changes nothing', async () => {
    const clock = createFakeClock();
    const { scheduler, tickets } = monitor(clock);
    const job: Job = { guid: 'g', intervalMs: interval, monitorCount: 2, monitorRank: 1 };
    scheduler.upsert(job);
    await advanceInSteps(clock, 10 * interval);
    const reference = tickets.map((t) => t.dueAt);
    const clock2 = createFakeClock();
    const other = monitor(clock2);
    other.scheduler.upsert(job);
    for (let t = 0; t < 10 * interval; t += 1000) {
      other.scheduler.upsert({ ...job });
      await clock2.advance(1000);
    }
    expect(other.tickets.map((t) => t.dueAt)).toEqual(reference);
    await scheduler.stop(0);
    await other.scheduler.stop(0);
  });
});

describe('checks that share a slot second', () => {
  it('start spread over the second, not in one millisecond (issue 26: a thousand connects in one burst)', async () => {
    const clock = createFakeClock();
    const from = Math.ceil(clock.now() / 1000) * 1000 + 20_000;
    const starts = new Map<number, number>();
    const scheduler = createScheduler({
      clock,
      concurrency: 2000,
      startupSpreadMs: 5000,
      onRunError: () => undefined,
      run: (ticket) => {
        if (ticket.dueAt >= from && ticket.dueAt < from + 1000)
          starts.set(clock.now(), (starts.get(clock.now()) ?? 0) + 1);
        return Promise.resolve();
      },
    });
    for (let i = 0; i < 1000; i++) scheduler.upsert({ guid: `check-${i}`, intervalMs: 1000 });
    await advanceInSteps(clock, 23_000, 50);
    const total = [...starts.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(1000); // the second from 20 s: every check once
    // Runs due within the batch window start together; no start takes more than a few dozen.
    expect(Math.max(...starts.values())).toBeLessThan(40);
    await scheduler.stop(0);
  });
});

describe('runs a second the checks ask for', () => {
  it('counts each check once per period, shares included, and follows upserts and removals', () => {
    const { scheduler } = monitor(createFakeClock());
    expect(scheduler.runsPerSecond()).toBe(0);
    scheduler.upsert({ guid: 'a', intervalMs: 1000 });
    scheduler.upsert({ guid: 'b', intervalMs: 10_000 });
    // Three monitors share it: this one runs it every 3 s.
    scheduler.upsert({ guid: 'c', intervalMs: 1000, monitorCount: 3, monitorRank: 1 });
    expect(scheduler.runsPerSecond()).toBeCloseTo(1 + 0.1 + 1 / 3, 9);
    scheduler.upsert({ guid: 'a', intervalMs: 500 });
    expect(scheduler.runsPerSecond()).toBeCloseTo(2 + 0.1 + 1 / 3, 9);
    scheduler.remove('c');
    expect(scheduler.runsPerSecond()).toBeCloseTo(2.1, 9);
    scheduler.pause();
    expect(scheduler.runsPerSecond()).toBeCloseTo(2.1, 9);
  });
});
