// A server absence is history (issue 25): a real reference server stopped and started again
// leaves one record (from, to, the last failure as data, what waited and what was delivered
// after) and one event episode, not one per failed call; `status --json` (another process)
// reports it.
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpTarget } from '../../targets/index.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { runCli } from '../../support/cli.ts';

interface AbsenceJson {
  started_at: string;
  ended_at: string | null;
  last_failure: { kind: string; cause?: string };
  waiting_at_start: number;
  waiting_most: number;
  waiting_at_end: number | null;
  delivered_after: number;
}

describe('server absences', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('records the stretch the server could not be reached, once, with what waited and what drained after', async () => {
    const target = await startHttpTarget({ '/ok': { status: 200, body: 'ok' } });
    h = await enrolledAgent();
    h.assignCheck({ name: 'up', url: `${target.url}/ok`, interval_sec: 1 });
    await h.agent.syncNow();
    await eventually(() => h.server.results(h.monitorId).length > 0, 10_000, 'a first result');
    expect(h.agent.serverAbsences()).toEqual([]);

    await h.server.stop();
    await eventually(() => h.agent.state().connection.state === 'unreachable', 10_000, 'unreachable');
    // Several failed calls and results waiting while it lasts.
    await eventually(() => h.agent.snapshot().outbox.unsent >= 3, 10_000, 'results waiting');
    await eventually(() => h.agent.state().loops.sync.failures >= 2, 10_000, 'more failed calls');
    const open = h.agent.serverAbsences();
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ ended_at: null, last_failure: { kind: 'network' } });
    expect(open[0]?.waiting_most).toBeGreaterThanOrEqual(3);
    const during = JSON.parse((await runCli(['status', '--json', '--data-dir', h.dataDir])).stdout) as {
      server_absences: AbsenceJson[];
    };
    expect(during.server_absences[0]).toMatchObject({ ended_at: null });

    await h.server.start();
    await eventually(() => h.agent.state().connection.state === 'connected', 10_000, 'connected again');
    const done = await eventually(
      () => {
        const [a] = h.agent.serverAbsences();
        return a !== undefined && a.waiting_at_end !== null && a.delivered_after >= a.waiting_at_end ? a : undefined;
      },
      10_000,
      'the backlog delivered',
    );
    expect(h.agent.serverAbsences()).toHaveLength(1);
    expect(done.ended_at).not.toBeNull();
    expect(done.waiting_at_end).toBeGreaterThanOrEqual(3);

    // One episode in Events for the whole absence, closed when the server answered.
    const events = h.agent.insight.events({ limit: 100 }).filter((e) => e.kind === 'server-unreachable');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ startedAt: done.started_at, endedAt: done.ended_at });
    expect(events[0]?.absence).toMatchObject({ delivered_after: done.delivered_after });

    const after = JSON.parse((await runCli(['status', '--json', '--data-dir', h.dataDir])).stdout) as {
      server_absences: AbsenceJson[];
    };
    expect(after.server_absences).toHaveLength(1);
    expect(after.server_absences[0]).toMatchObject({ started_at: done.started_at, ended_at: done.ended_at });
    await target.close();
  });
});
