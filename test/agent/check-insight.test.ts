// The agent's record of its checks, end to end against the reference server and a real target:
// a check going down then up is one episode in the event log (announced once each way), the
// rollups carry its runs for the windows, and a "Run now" test run is explained, logged as such
// and never uploaded.
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckTransition } from '../../src-main/agent/transitions.ts';
import { enrolledAgent, eventually, type Harness } from '../support/agent-harness.ts';
import { startHttpTarget, type HttpTarget } from '../targets/index.ts';

describe('check insight: events, rollups and test runs', () => {
  let h: Harness;
  let target: HttpTarget;
  afterEach(async () => {
    await h.close();
    await target.close();
  });

  it('records a down episode with its reason and end, feeds the windows, and test-runs without uploading', async () => {
    let status = 200;
    target = await startHttpTarget({ '/shop': (_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('shop') });
    h = await enrolledAgent();
    const told: CheckTransition[] = [];
    h.agent.onTransition((t) => told.push(t));
    const check = h.server.admin.createCheck({ name: 'Shop', url: `${target.url}/shop`, interval_sec: 1, orgId: h.orgId });
    h.server.admin.assign(check.guid, h.monitorId);
    await h.agent.syncNow();
    await eventually(() => h.agent.snapshot().checks.find((c) => c.guid === check.guid)?.health === 'up', 10_000, 'the check up');

    status = 503;
    await eventually(() => h.agent.snapshot().checks.find((c) => c.guid === check.guid)?.health === 'down', 10_000, 'the check down');
    const down = h.agent.snapshot().checks.find((c) => c.guid === check.guid);
    expect(down?.downSince).toBeDefined();
    expect(down?.beats).toMatch(/^u+d+$/);
    // More failed runs do not announce it again.
    await eventually(() => (h.agent.snapshot().checks.find((c) => c.guid === check.guid)?.beats ?? '').endsWith('dd'), 10_000, 'a second failed run');

    status = 200;
    await eventually(() => told.some((t) => t.kind === 'recovered'), 10_000, 'the recovery');
    expect(told.map((t) => t.kind)).toEqual(['down', 'recovered']);
    expect(told[1]?.downSince).toBe(down?.downSince);

    const [episode] = h.agent.insight.events({ guid: check.guid, limit: 10 });
    expect(episode).toMatchObject({ kind: 'down', checkName: 'Shop', startedAt: down?.downSince, endReason: 'status 200' });
    expect(episode?.reason).toContain('503');
    expect(episode?.endedAt).toBeDefined();

    const window = h.agent.insight.window(check.guid, '1h');
    const runs = window.buckets.reduce((n, b) => n + b.runs, 0);
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(window.uptime['1h'].runs).toBe(runs);
    expect(window.uptime['1h'].failures).toBeGreaterThanOrEqual(2);
    expect(window.uptime['24h']).toEqual(window.uptime['1h']);
    expect(window.lastRun).toMatchObject({ success: true, httpStatus: 200, test: false });
    expect(window.lastRun?.timings?.totalMs).toBeGreaterThan(0);

    const uploaded = (): number => h.server.results(h.monitorId).length;
    await h.agent.uploadNow();
    const before = uploaded();
    const test = await h.agent.insight.testRun(check.guid);
    expect(test).toMatchObject({ ok: true, run: { success: true, httpStatus: 200, test: true } });
    const [logged] = h.agent.insight.events({ guid: check.guid, limit: 1 });
    expect(logged?.kind).toBe('test-run');
    expect(logged?.reason).toContain('not uploaded');
    const outcome = await h.agent.uploadNow();
    expect(outcome.ok).toBe(true);
    // Only scheduled runs reached the server: none of them is the test run's time.
    const sent = h.server.results(h.monitorId).slice(before);
    expect(sent.every((r) => r.ranAt !== (test.ok ? test.run.ranAt : ''))).toBe(true);

    const refused = await h.agent.insight.testRun('no-such-guid');
    expect(refused.ok ? '' : refused.error).toContain('cannot be run now');
  });
});
