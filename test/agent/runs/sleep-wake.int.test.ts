// Sleep, wake and clock steps end to end (issue 10 §2): a real agent against the reference
// server and a loopback target, on a clock whose wall part the test steps (real timers and a
// real monotonic clock underneath, as after a suspend on Linux or an NTP step).
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../src-main/agent/base/clock.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { startHttpTarget, startSilentPort } from '../../targets/index.ts';

const hour = 3_600_000;

function steppableClock() {
  let shift = 0;
  const clock: Clock = {
    now: () => Date.now() + shift,
    monotonic: () => systemClock.monotonic(),
    setTimer: (delayMs, fn) => systemClock.setTimer(delayMs, fn),
  };
  return { clock, step: (ms: number) => (shift += ms) };
}

describe('a real agent across a wall-clock jump of an hour', () => {
  let h: Harness | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await h?.close();
    h = undefined;
    for (const close of closers.splice(0)) await close();
  });

  it('sends ran_at on the wall clock of each run and counts uptime on the monotonic clock', async () => {
    const target = await startHttpTarget({ '/': { status: 200, body: 'ok' } });
    closers.push(() => target.close());
    const { clock, step } = steppableClock();
    h = await enrolledAgent({ agent: { clock }, tunables: { statusIntervalMs: 100, uploadIntervalMs: 100 } });
    const harness = h;
    harness.assignCheck({
      name: 'up',
      url: target.url,
      interval_sec: 1,
    });
    await harness.agent.syncNow();
    await eventually(() => harness.server.results(harness.monitorId).length > 0, 10_000, 'a first result');

    step(hour);
    const steppedAt = clock.now();
    const statusesBefore = harness.server.statuses(harness.monitorId).length;
    // The next runs carry the stepped wall clock, not the old one plus monotonic time.
    await eventually(
      () => harness.server.results(harness.monitorId).find((r) => Date.parse(r.ranAt) >= steppedAt),
      10_000,
      'a result with ran_at on the stepped wall clock',
    );
    const status = await eventually(
      () =>
        harness.server
          .statuses(harness.monitorId)
          .slice(statusesBefore + 1)
          .at(-1),
      10_000,
      'a status after the step',
    );
    // The agent ran for seconds, not for the hour the wall clock moved.
    expect(status.status.uptime_sec).toBeLessThan(600);
  });

  /** A check on a port that never answers, reported as a failure while nothing has slept. */
  async function silentCheckAgent(options: { step?: boolean } = {}) {
    const silent = await startSilentPort();
    closers.push(() => silent.close());
    const stepper = steppableClock();
    h = await enrolledAgent({ agent: { clock: stepper.clock }, tunables: { wakeGraceMs: 4000, clockWatchMs: 50 } });
    const harness = h;
    const check = harness.assignCheck({
      name: 'silent',
      url: `http://127.0.0.1:${silent.port}/`,
      interval_sec: 1,
      timeout_sec: 1,
    });
    await harness.agent.syncNow();
    // Awake, the server answers the connectivity probe: no answer from the target is a real failure.
    await eventually(
      () => harness.server.results(harness.monitorId).some((r) => r.checkGuid === check.guid && !r.success),
      15_000,
      'a reported failure',
    );
    if (options.step === true) stepper.step(hour);
    else harness.agent.clockJumped();
    return { harness, guid: check.guid, wokeAt: stepper.clock.now() };
  }

  async function expectGraceThenFailures(harness: Harness, guid: string, wokeAt: number): Promise<void> {
    const skipped = await eventually(
      () => {
        const rows = harness.agent.checkHistory(guid, 50).filter((e) => e.skipped && Date.parse(e.ran_at) >= wokeAt);
        return rows.length > 0 ? rows : undefined;
      },
      15_000,
      'a run kept as skipped during the wake grace period',
    );
    // After the grace period, a run with no answer is a failure again, and uploaded.
    await eventually(
      () =>
        harness.server
          .results(harness.monitorId)
          .some((r) => r.checkGuid === guid && !r.success && Date.parse(r.ranAt) >= wokeAt),
      15_000,
      'a failure reported after the grace period',
    );
    await harness.agent.uploadNow();
    const sent = new Set(harness.server.results(harness.monitorId).map((r) => r.ranAt));
    expect(skipped.filter((e) => sent.has(e.ran_at))).toEqual([]);
  }

  it('after a wake-up seen from the clocks (headless), runs with no answer are kept as skipped for the grace period', async () => {
    const { harness, guid, wokeAt } = await silentCheckAgent({ step: true });
    await expectGraceThenFailures(harness, guid, wokeAt);
  });

  it('after the OS reports a wake-up (powerMonitor resume), runs with no answer are kept as skipped for the grace period', async () => {
    const { harness, guid, wokeAt } = await silentCheckAgent();
    await expectGraceThenFailures(harness, guid, wokeAt);
  });
});
