// Sleep, wake and clock steps (issue 10 §2): fake clocks whose wall and monotonic parts diverge.
import { describe, expect, it } from 'vitest';
import { createCheckRunner } from '../../../src-main/agent/runs/check-runner.ts';
import type { RunRecord } from '../../../src-main/agent/results/result-sink.ts';
import { phaseMs } from '../../../src-main/agent/schedule/grid.ts';
import { createScheduler, type RunTicket } from '../../../src-main/agent/schedule/scheduler.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';

const hour = 3_600_000;

function setup(clock: FakeClock = createFakeClock()) {
  /** Each run with the wall-clock time it really started, read by the fake runner itself. */
  const tickets: (RunTicket & { wall: number })[] = [];
  const scheduler = createScheduler({
    clock,
    concurrency: 100,
    startupSpreadMs: 5000,
    clockJumpThresholdMs: 5000,
    onRunError: () => undefined,
    run: async (ticket) => {
      tickets.push({ ...ticket, wall: clock.now() });
      await new Promise<void>((resolve) => clock.setTimer(20, resolve));
    },
  });
  return { clock, scheduler, tickets };
}

async function stopAll(clock: FakeClock, scheduler: { stop(graceMs: number): Promise<void> }): Promise<void> {
  const stopping = scheduler.stop(60_000);
  await clock.advance(60_000);
  await stopping;
}

async function advanceInSteps(clock: FakeClock, total: number, step = 1000): Promise<void> {
  for (let t = 0; t < total; t += step) await clock.advance(step);
}

describe('ran_at after a clock step', () => {
  it('is the wall-clock time the run started, not wall-at-start plus monotonic time', async () => {
    const clock = createFakeClock();
    const records: RunRecord[] = [];
    const probeStartedAt: number[] = [];
    const scheduler = createScheduler({
      clock,
      concurrency: 10,
      startupSpreadMs: 1000,
      onRunError: (_g, e) => {
        throw e;
      },
      run: createCheckRunner({
        lookup: (guid) => ({
          guid,
          name: guid,
          intervalMs: 10_000,
          maxChars: 100,
          definition: { url: 'http://127.0.0.1:1/', match_string: '' },
        }),
        probe: () => {
          probeStartedAt.push(clock.now());
          return Promise.resolve({
            success: true,
            httpStatus: 200,
            latencyMs: 3,
            answered: true,
            decidedBy: 'all-rules' as const,
            error: '',
            responseSample: '',
          });
        },
        sink: { add: (r) => records.push(r) },
        monitorId: () => 'm',
        skipsRun: () => Promise.resolve(false),
      }),
    });
    scheduler.upsert({ guid: 'a', intervalMs: 10_000 });
    await advanceInSteps(clock, 30_000);
    // The machine sleeps an hour with the monotonic clock standing still (Linux), or NTP steps.
    await clock.stepWall(hour);
    await advanceInSteps(clock, 30_000);
    expect(records.length).toBeGreaterThanOrEqual(5);
    expect(records.map((r) => Date.parse(r.result?.ran_at ?? ''))).toEqual(probeStartedAt);
    await stopAll(clock, scheduler);
  });
});

describe('scheduler across a sleep or a clock step', () => {
  it('wall clock forward (sleep, monotonic stood still): the grid follows the wall clock, no burst, nothing invented', async () => {
    const { clock, scheduler, tickets } = setup();
    for (let i = 0; i < 20; i++) scheduler.upsert({ guid: `c${i}`, intervalMs: 10_000 });
    await advanceInSteps(clock, 60_000);
    const before = tickets.length;
    await clock.stepWall(hour);
    await advanceInSteps(clock, 30_000);
    const after = tickets.slice(before);
    // At most one run per check per interval: 3 intervals, 20 checks (one may fall on an edge).
    expect(after.length).toBeLessThanOrEqual(20 * 4);
    expect(after.length).toBeGreaterThanOrEqual(20 * 2);
    for (const t of after) {
      // Due and start times are on the wall clock's grid again, not an hour behind it.
      expect(Math.abs(t.wall - t.dueAt)).toBeLessThan(1000);
      expect((t.dueAt - phaseMs(t.guid, 10_000)) % 10_000).toBe(0);
    }
    expect(scheduler.stats().skippedOverlap).toBe(0);
    await stopAll(clock, scheduler);
  });

  it('a stalled process (timers an hour late): no burst of missed runs, the grid continues from now', async () => {
    const { clock, scheduler, tickets } = setup();
    for (let i = 0; i < 20; i++) scheduler.upsert({ guid: `c${i}`, intervalMs: 10_000 });
    await advanceInSteps(clock, 60_000);
    const before = tickets.length;
    const wokeAt = clock.now() + hour;
    await clock.stall(hour);
    // Nothing starts the moment the process runs again: the runs missed while asleep are not owed.
    expect(tickets.length).toBe(before);
    expect(scheduler.stats().skippedOverlap + scheduler.stats().skippedBacklog).toBe(0);
    await advanceInSteps(clock, 10_000, 500);
    const after = tickets.slice(before);
    expect(after).toHaveLength(20);
    for (const t of after) expect(t.dueAt).toBeGreaterThan(wokeAt);
    await stopAll(clock, scheduler);
  });

  it('wall clock back (NTP correction): no hour-long gap, no repeated runs', async () => {
    const { clock, scheduler, tickets } = setup();
    scheduler.upsert({ guid: 'a', intervalMs: 10_000 });
    await advanceInSteps(clock, 30_000);
    const before = tickets.length;
    await clock.stepWall(-hour);
    await advanceInSteps(clock, 30_000);
    const after = tickets.slice(before);
    expect(after.length).toBeGreaterThanOrEqual(2);
    expect(after.length).toBeLessThanOrEqual(4);
    for (const t of after) expect(Math.abs(t.wall - t.dueAt)).toBeLessThan(1000);
    await stopAll(clock, scheduler);
  });

  it('clockJumped() (the OS says it woke) rebases at once; a first run still owed stays within the start-up spread', async () => {
    const { clock, scheduler, tickets } = setup();
    scheduler.upsert({ guid: 'old', intervalMs: 60_000 });
    await advanceInSteps(clock, 10_000);
    scheduler.upsert({ guid: 'new', intervalMs: 60_000 });
    await clock.stepWall(hour);
    scheduler.clockJumped();
    const wokeAt = clock.now();
    await advanceInSteps(clock, 6000, 100);
    const fresh = tickets.filter((t) => t.guid === 'new');
    expect(fresh).toHaveLength(1);
    expect(fresh[0]?.wall).toBeGreaterThanOrEqual(wokeAt);
    expect(fresh[0]?.wall).toBeLessThan(wokeAt + 5000);
    await advanceInSteps(clock, 60_000);
    const old = tickets.filter((t) => t.guid === 'old' && t.wall >= wokeAt);
    expect(old).toHaveLength(1);
    expect((old[0]?.dueAt ?? 0) - phaseMs('old', 60_000)).toSatisfy((d: number) => d % 60_000 === 0);
    await stopAll(clock, scheduler);
  });

  it('lateness below the threshold is ordinary lag: the runs still happen', async () => {
    const { clock, scheduler, tickets } = setup();
    scheduler.upsert({ guid: 'a', intervalMs: 1000 });
    await advanceInSteps(clock, 10_000);
    const before = tickets.length;
    await clock.stall(2500);
    expect(tickets.length).toBe(before + 1);
    await stopAll(clock, scheduler);
  });
});
