// Issue 12 §1-3, the checks' side as the agent plumbs it: the egress policy and the proxy
// opt-in reach every run, and a change in settings applies to the next run (the probes decide).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { startForwardProxy, startHttpTarget, type ForwardProxy, type HttpTarget } from '../../targets/index.ts';

/** What the proxy was asked for, tunnels and plain requests alike. */
const seen = (proxy: ForwardProxy): string[] => [...proxy.connects, ...proxy.plain];

describe('network settings for checks', () => {
  let target: HttpTarget;
  let targetUrl: string;
  let proxy: ForwardProxy;
  let h: Harness;
  beforeAll(async () => {
    target = await startHttpTarget({ '/': { body: 'ok' } });
    targetUrl = `${target.url}/`;
    proxy = await startForwardProxy();
  });
  afterAll(async () => {
    await proxy.close();
    await target.close();
  });
  afterEach(() => h.close());

  const lastResult = (guid: string) => h.agent.snapshot().checks.find((c) => c.guid === guid)?.lastResult;

  it('runs checks under the egress policy, and a change applies to the next run', async () => {
    h = await enrolledAgent({ agent: { network: { egressPolicy: 'strict' }, env: {} } });
    expect(h.agent.snapshot().egressPolicy).toBe('strict');
    const check = h.assignCheck({ name: 'Local', url: targetUrl, interval_sec: 1 });
    await h.agent.syncNow();
    const blocked = await eventually(() => lastResult(check.guid), 10_000, 'a run');
    expect(blocked.success).toBe(false);
    expect(blocked.error).toContain('blocked by egress policy');

    await h.agent.setNetwork({ egressPolicy: 'open' });
    await eventually(() => lastResult(check.guid)?.success === true, 10_000, 'a run under the open policy');
  });

  it('dials checks directly by default and through the proxy when opted in', async () => {
    h = await enrolledAgent({ agent: { network: { proxyUrl: proxy.url }, env: {} } });
    const check = h.assignCheck({ name: 'Via', url: targetUrl, interval_sec: 1 });
    await h.agent.syncNow();
    await eventually(() => lastResult(check.guid)?.success === true, 10_000, 'a direct run');
    const targetHost = new URL(targetUrl).host;
    expect(seen(proxy).filter((s) => s.includes(targetHost))).toEqual([]);

    await h.agent.setNetwork({ proxyUrl: proxy.url, checksUseProxy: true });
    await eventually(() => seen(proxy).some((s) => s.includes(targetHost)), 10_000, 'a run through the proxy');
  });
});
