// Issue 12 §6: after 401/403 the agent rechecks with one light request (ping) every
// authRetryMs..2x (15-30 s by default; short here), and resumes sync and upload as soon as the
// server accepts it again. Real reference server, its disable/enable and key-reset operations.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enrolledAgent, eventually, type Harness } from '../support/agent-harness.ts';

const authRetryMs = 300;
const tunables = { syncIntervalMs: 50, uploadIntervalMs: 50, statusIntervalMs: 50, pingIntervalMs: 50, authRetryMs };

describe('a rejected monitor rechecks lightly and resumes quickly', () => {
  let h: Harness;
  let target: Server;
  let targetUrl: string;
  beforeAll(async () => {
    target = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  });
  afterAll(() => {
    target.closeAllConnections();
    target.close();
  });
  afterEach(() => h.close());

  /** Requests of this monitor after seq, by endpoint, with the gaps between pings. */
  const trafficAfter = (seq: number) => {
    const seen = h.server.requests().filter((r) => r.seq > seq && r.endpoint !== 'enroll');
    const pings = seen.filter((r) => r.endpoint === 'ping').map((r) => Date.parse(r.at));
    return { endpoints: new Set(seen.map((r) => r.endpoint)), pings, gaps: pings.slice(1).map((t, i) => t - (pings[i] ?? t)) };
  };

  it('while disabled (403) only pings, spaced by the recheck delay; once enabled, sync and upload resume', async () => {
    h = await enrolledAgent({ tunables });
    const check = h.server.admin.createCheck({ name: 'C', url: targetUrl, interval_sec: 1, orgId: h.orgId });
    h.server.admin.assign(check.guid, h.monitorId);
    await eventually(() => h.server.results(h.monitorId).length > 0, 10_000, 'a first result');

    h.server.admin.disableMonitor(h.monitorId);
    await eventually(() => h.agent.state().auth === 'monitor-disabled', 10_000, 'the 403 seen');
    // Calls already in flight when the 403 came may still land; count from a quiet point.
    await new Promise((r) => setTimeout(r, 100));
    const from = h.server.requests().at(-1)?.seq ?? 0;
    await eventually(() => trafficAfter(from).pings.length >= 4, 10_000, 'four rechecks');
    const traffic = trafficAfter(from);
    // With 50 ms loops, the four loops would have called dozens of times in this window.
    expect([...traffic.endpoints]).toEqual(['ping']);
    for (const gap of traffic.gaps) expect(gap).toBeGreaterThanOrEqual(authRetryMs - 20);

    const resultsBefore = h.server.results(h.monitorId).length;
    const enabledAt = h.server.requests().at(-1)?.seq ?? 0;
    h.server.admin.enableMonitor(h.monitorId);
    await eventually(() => h.agent.state().auth === 'ok', 10_000, 'accepted again');
    await eventually(() => h.server.results(h.monitorId).length > resultsBefore, 10_000, 'results uploaded again');
    const after = h.server.requests().filter((r) => r.seq > enabledAt);
    expect(after.some((r) => r.endpoint === 'checks' && r.status === 200)).toBe(true);
    // Resumed at the first accepted recheck, not a recheck later.
    const firstOk = after.findIndex((r) => r.status === 200);
    expect(after.slice(0, firstOk).filter((r) => r.endpoint === 'ping').length).toBeLessThanOrEqual(1);
  });

  it('after a key reset (401) only pings, and the state says the key was refused', async () => {
    h = await enrolledAgent({ tunables });
    h.server.admin.resetKey(h.monitorId);
    await eventually(() => h.agent.state().auth === 'key-rejected', 10_000, 'the 401 seen');
    await new Promise((r) => setTimeout(r, 100));
    const from = h.server.requests().at(-1)?.seq ?? 0;
    await eventually(() => trafficAfter(from).pings.length >= 3, 10_000, 'three rechecks');
    expect([...trafficAfter(from).endpoints]).toEqual(['ping']);
    expect(h.agent.snapshot().problems.map((p) => p.kind)).toContain('key-rejected');
  });
});
