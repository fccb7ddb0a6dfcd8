// Demand beyond capacity: runs are skipped and counted (never queued without bound), and both
// the window (snapshot problem) and `status --json` (another process) say the agent is overloaded.
import { afterEach, describe, expect, it } from 'vitest';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { statusJson } from '../../support/cli-agent.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

let harness: Harness | undefined;
let target: HttpTarget | undefined;
afterEach(async () => {
  await harness?.close();
  await target?.close();
  harness = undefined;
  target = undefined;
});

interface StatusJson {
  overloaded: boolean;
  skipped_overlap: number;
  skipped_backlog: number;
  runs_executed: number;
  schedule_lag_p99_ms: number | null;
  runs_waited_for_slot: number;
  run_cap: number | null;
  load_sampled_at: string | null;
}

describe('overload', () => {
  it('one run slot for three 1 s checks whose target answers after 1.5 s: skipped, counted and reported', async () => {
    target = await startHttpTarget({ '/': { status: 200, body: 'ok', delayMs: 1500 } });
    harness = await enrolledAgent({ tunables: { concurrency: 1, loadSampleMs: 100 } });
    const { agent, dataDir } = harness;
    for (const name of ['a', 'b', 'c']) {
      harness.assignCheck({ name, url: `${target.url}/`, interval_sec: 1 });
    }
    await agent.syncNow();

    const report = await eventually(
      async () => {
        const s = await statusJson<StatusJson>(dataDir);
        // The lag needs a run started within the window, after the first sample.
        return s.overloaded && s.skipped_backlog > 0 && s.runs_waited_for_slot > 0 && s.schedule_lag_p99_ms !== null
          ? s
          : undefined;
      },
      15_000,
      'status --json to say overloaded, with the lag of the runs that started',
    );
    expect(report.skipped_overlap + report.skipped_backlog).toBeGreaterThan(0);
    // The figures that give missed runs over an interval, and the lag, reach the CLI.
    expect(report.runs_executed).toBeGreaterThan(0);
    expect(report.schedule_lag_p99_ms).toEqual(expect.any(Number));
    // One slot for three checks: runs start only when the one before ends, and are counted so.
    expect(report.runs_waited_for_slot).toBeLessThanOrEqual(report.runs_executed);
    // Probed in the main thread, the cap is the configured one.
    expect(report.run_cap).toBe(1);
    expect(Number.isNaN(Date.parse(report.load_sampled_at ?? ''))).toBe(false);
    expect(agent.snapshot().problems.map((p) => p.kind)).toContain('overloaded');
    // Never a queue: at most one run waits behind the cap per check.
    const stats = agent.snapshot().scheduler;
    expect(stats?.waiting ?? 0).toBeLessThanOrEqual(3);

    // A stopped agent is not overloaded any more.
    await agent.stop();
    expect(await statusJson<StatusJson>(dataDir)).toMatchObject({
      overloaded: false,
      skipped_overlap: 0,
      skipped_backlog: 0,
      runs_executed: 0,
      schedule_lag_p99_ms: null,
      runs_waited_for_slot: 0,
      run_cap: null,
      load_sampled_at: null,
    });
  }, 30_000);

  it('an agent that keeps up is not overloaded', async () => {
    target = await startHttpTarget({ '/': { status: 200, body: 'ok' } });
    harness = await enrolledAgent({ tunables: { loadSampleMs: 100 } });
    const { agent, dataDir } = harness;
    harness.assignCheck({ name: 'fast', url: `${target.url}/`, interval_sec: 1 });
    await agent.syncNow();
    await eventually(() => agent.state().load, 10_000, 'a load sample');
    await eventually(
      () => (agent.snapshot().checks[0]?.lastResult === undefined ? undefined : true),
      10_000,
      'a first result',
    );
    const status = await eventually(
      async () => {
        const s = await statusJson<StatusJson>(dataDir);
        return s.runs_executed > 0 && s.schedule_lag_p99_ms !== null ? s : undefined;
      },
      10_000,
      'status --json to show the runs and their lag',
    );
    expect(status).toMatchObject({ overloaded: false, skipped_backlog: 0, runs_waited_for_slot: 0 });
    expect(status.schedule_lag_p99_ms).toBeGreaterThanOrEqual(0);
    expect(agent.snapshot().problems.map((p) => p.kind)).not.toContain('overloaded');
  }, 30_000);
});
