import { describe, expect, it } from 'vitest';
import { createScheduler, type RunTicket, type SchedulerOptions } from '../../../src-main/agent/schedule/scheduler.ts';
import { phaseMs } from '../../../src-main/agent/schedule/grid.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';

/** A fake runner: each run lasts `durationMs` of fake time. */
function setup(durationMs: number, overrides: Partial<SchedulerOptions> = {}) {
  const clock = createFakeClock(0);
  const tickets: RunTicket[] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  const scheduler = createScheduler({
    clock,
    concurrency: 100,
    startupSpreadMs: 5000,
    onRunError: () => undefined,
    run: async (ticket) => {
      tickets.push(ticket);
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      await new Promise<void>((resolve) => clock.setTimer(durationMs, resolve));
      concurrent--;
    },
    ...overrides,
  });
  return { clock, scheduler, tickets, maxConcurrent: () => maxConcurrent };
}

const runsOf = (tickets: RunTicket[], guid: string) => tickets.filter((t) => t.guid === guid);

/** Stops the scheduler while fake time moves on, so the fake runs in flight can finish. */
async function stopAll(clock: FakeClock, scheduler: { stop(graceMs: number): Promise<void> }): Promise<void> {
  const stopping = scheduler.stop(60_000);
  await clock.advance(60_000);
  await stopping;
}

/** Twenty checks at 60 s whose runs last 3 s, under the given cap, 30 s in: all first runs done. */
async function twentyChecks(concurrency: number) {
  const run = setup(3000, { concurrency });
  for (let i = 0; i < 20; i++) run.scheduler.upsert({ guid: `c${i}`, intervalMs: 60_000 });
  await run.clock.advance(30_000);
  return run;
}

async function advanceInSteps(clock: FakeClock, total: number, step: number): Promise<void> {
  for (let t = 0; t < total; t += step) await clock.advance(step);
}

describe('scheduler', () => {
  it('runs a new check within the start-up spread, then on its fixed grid without drift', async () => {
    const { clock, scheduler, tickets } = setup(137);
    scheduler.upsert({ guid: 'a', intervalMs: 10_000 });
    await advanceInSteps(clock, 100_000, 250);
    const runs = runsOf(tickets, 'a');
    expect(runs[0]?.dueAt).toBeLessThan(5000);
    const phase = phaseMs('a', 10_000);
    for (const run of runs.slice(1)) expect((run.dueAt - phase) % 10_000).toBe(0);
    const gaps = runs.slice(2).map((r, i) => r.dueAt - (runs[i + 1]?.dueAt ?? 0));
    expect(new Set(gaps)).toEqual(new Set([10_000]));
    expect(runs.length).toBeGreaterThanOrEqual(10);
    await stopAll(clock, scheduler);
  });

  it('skips and counts a run whose previous run is still in flight', async () => {
    const { clock, scheduler, tickets } = setup(25_000);
    scheduler.upsert({ guid: 'slow', intervalMs: 10_000 });
    await clock.advance(100_000);
    const stats = scheduler.stats();
    expect(stats.skippedOverlap).toBeGreaterThan(0);
    expect(stats.executed + stats.skippedOverlap).toBe(runsOf(tickets, 'slow').length + stats.skippedOverlap);
    // A run lasting 2.5 intervals overlaps the next two grid points each time.
    expect(stats.skippedOverlap).toBeGreaterThanOrEqual(2 * (stats.executed - 1));
    await stopAll(clock, scheduler);
  });

  it('starts runs due within batchMs of each other together, early and never late', async () => {
    // Two checks whose grid points are 1–9 ms apart, found by their guids' phases. Whole-second
    // intervals put every phase on a whole second (the fleet's formula); a fraction of one does not.
    const interval = 999;
    const guids = Array.from({ length: 400 }, (_, i) => `check-${i}`);
    const pair = guids.flatMap((a) =>
      guids
        .filter((b) => {
          const gap = phaseMs(b, interval) - phaseMs(a, interval);
          return gap >= 1 && gap <= 9;
        })
        .map((b) => [a, b] as const),
    )[0];
    if (pair === undefined) throw new Error('no two guids with nearby phases');
    const [first, second] = pair;
    const batched = setup(1, { batchMs: 10, startupSpreadMs: 1 });
    const exact = setup(1, { batchMs: 0, startupSpreadMs: 1 });
    for (const { clock, scheduler } of [batched, exact]) {
      scheduler.upsert({ guid: first, intervalMs: interval });
      scheduler.upsert({ guid: second, intervalMs: interval });
      await advanceInSteps(clock, 5 * interval, 1);
    }
    const onGrid = (tickets: RunTicket[], guid: string) => runsOf(tickets, guid).slice(1);
    for (const { tickets } of [batched, exact]) {
      for (const run of [...onGrid(tickets, first), ...onGrid(tickets, second)]) {
        expect(run.startedAt).toBeLessThanOrEqual(run.dueAt);
        expect(run.dueAt - run.startedAt).toBeLessThan(10);
      }
    }
    // Batched, the later check starts with the earlier one; exact, each at its own due time.
    expect(onGrid(batched.tickets, second).map((r) => r.startedAt)).toEqual(
      onGrid(batched.tickets, first).map((r) => r.startedAt),
    );
    expect(onGrid(exact.tickets, second).map((r) => r.startedAt)).toEqual(
      onGrid(exact.tickets, second).map((r) => r.dueAt),
    );
    expect(onGrid(batched.tickets, second).length).toBeGreaterThanOrEqual(3);
    // The lag counted for a run started early is 0.
    expect(batched.scheduler.lag()[0]).toBe(batched.scheduler.stats().executed);
    await stopAll(batched.clock, batched.scheduler);
    await stopAll(exact.clock, exact.scheduler);
  });

  it('never starts a run before its slot second, however wide the batch', async () => {
    // Two checks at 1 s whose starts inside the second sit either side of a whole second: the
    // early one at .99x, the later one at .00x. A batch must not pull the later one into the
    // second before its own (the fleet's slot is a whole Unix second: grid.ts gridSlot).
    const interval = 1000;
    const guids = Array.from({ length: 4000 }, (_, i) => `check-${i}`);
    const late = guids.find((g) => phaseMs(g, interval) >= 990);
    const early = guids.find((g) => phaseMs(g, interval) <= 5);
    if (late === undefined || early === undefined) throw new Error('no guids either side of a second');
    const { clock, scheduler, tickets } = setup(1, { batchMs: 30, startupSpreadMs: 1 });
    scheduler.upsert({ guid: late, intervalMs: interval });
    scheduler.upsert({ guid: early, intervalMs: interval });
    await advanceInSteps(clock, 6 * interval, 1);
    const onGrid = [...runsOf(tickets, late).slice(1), ...runsOf(tickets, early).slice(1)];
    expect(runsOf(tickets, early).slice(1).length).toBeGreaterThanOrEqual(4);
    for (const run of onGrid) {
      expect(Math.floor(run.startedAt / 1000)).toBe(Math.floor(run.dueAt / 1000));
      expect(run.startedAt).toBeLessThanOrEqual(run.dueAt);
    }
    await stopAll(clock, scheduler);
  });

  it('never runs more than the concurrency cap at once', async () => {
    const { clock, scheduler, maxConcurrent } = await twentyChecks(3);
    expect(maxConcurrent()).toBe(3);
    expect(scheduler.stats().executed).toBe(20);
    await stopAll(clock, scheduler);
  });

  it('reads a cap that changes: runs beyond it wait, and start once it rises again', async () => {
    let cap = 3;
    let reads = 0;
    const run = setup(3000, {
      concurrency: 10,
      cap: () => {
        reads++;
        return cap;
      },
    });
    for (let i = 0; i < 20; i++) run.scheduler.upsert({ guid: `c${i}`, intervalMs: 60_000 });
    await run.clock.advance(8000);
    expect(run.maxConcurrent()).toBe(3);
    expect(reads).toBeGreaterThan(0);
    // Above the scheduler's own concurrency, its own counts.
    cap = 50;
    await run.clock.advance(30_000);
    expect(run.maxConcurrent()).toBe(10);
    expect(new Set(run.tickets.map((t) => t.guid)).size).toBe(20);
    await stopAll(run.clock, run.scheduler);
  });

  it('counts the runs that started only after waiting for a free slot: their wait is their lag', async () => {
    const capped = await twentyChecks(3);
    const waited = capped.tickets.filter((t) => t.startedAt > t.dueAt);
    expect(waited.length).toBeGreaterThan(0);
    expect(capped.scheduler.stats()).toMatchObject({ executed: 20, startedAfterWait: waited.length });
    await stopAll(capped.clock, capped.scheduler);

    // The same checks with room for all: none waits (the fake timer fires on time, no lag).
    const roomy = await twentyChecks(100);
    expect(roomy.scheduler.stats()).toMatchObject({ executed: 20, startedAfterWait: 0 });
    expect(roomy.tickets.filter((t) => t.startedAt > t.dueAt)).toEqual([]);
    await stopAll(roomy.clock, roomy.scheduler);
  });

  it('applies a new interval without a restart', async () => {
    const { clock, scheduler, tickets } = setup(10);
    scheduler.upsert({ guid: 'a', intervalMs: 60_000 });
    await clock.advance(10_000);
    scheduler.upsert({ guid: 'a', intervalMs: 5000 });
    await clock.advance(30_000);
    const late = runsOf(tickets, 'a').filter((t) => t.dueAt > 10_000);
    expect(late.length).toBeGreaterThanOrEqual(5);
    for (const run of late) expect((run.dueAt - phaseMs('a', 5000)) % 5000).toBe(0);
    await stopAll(clock, scheduler);
  });

  it('stops a removed check at once', async () => {
    const { clock, scheduler, tickets } = setup(10);
    scheduler.upsert({ guid: 'a', intervalMs: 1000 });
    await clock.advance(10_000);
    scheduler.remove('a');
    const before = tickets.length;
    await clock.advance(10_000);
    expect(tickets.length).toBe(before);
    expect(scheduler.has('a')).toBe(false);
  });

  it('pause starts nothing; resume continues on the grid without catching up', async () => {
    const { clock, scheduler, tickets } = setup(10);
    scheduler.upsert({ guid: 'a', intervalMs: 1000 });
    await clock.advance(5000);
    scheduler.pause();
    const before = tickets.length;
    await clock.advance(20_000);
    expect(tickets.length).toBe(before);
    scheduler.resume();
    await clock.advance(3000);
    expect(tickets.length - before).toBe(3);
    await stopAll(clock, scheduler);
  });

  it('stop waits for runs in flight, and aborts them after the grace period', async () => {
    const clock = createFakeClock(0);
    let aborted = false;
    const scheduler = createScheduler({
      clock,
      concurrency: 10,
      startupSpreadMs: 1,
      onRunError: () => undefined,
      run: (ticket) =>
        new Promise<void>((resolve) => {
          ticket.signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    });
    scheduler.upsert({ guid: 'hang', intervalMs: 60_000 });
    await clock.advance(10);
    let done = false;
    const stopping = scheduler.stop(2000).then(() => (done = true));
    await clock.advance(1999);
    expect(done).toBe(false);
    await clock.advance(1);
    await stopping;
    expect(aborted).toBe(true);
  });
});
