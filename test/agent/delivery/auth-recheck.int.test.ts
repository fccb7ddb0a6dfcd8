// Issue 12 §6: after 401/403 the agent rechecks with one light request (ping) every
// authRetryMs..2x (15-30 s by default; short here), and resumes sync and upload as soon as the
// server accepts it again. Real reference server, its disable/enable and key-reset operations.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

const authRetryMs = 300;
const tunables = { syncIntervalMs: 50, uploadIntervalMs: 50, statusIntervalMs: 50, pingIntervalMs: 50, authRetryMs };

describe('a rejected monitor rechecks lightly and resumes quickly', () => {
  let h: Harness;
  let target: HttpTarget;
  let targetUrl: string;
  beforeAll(async () => {
    target = await startHttpTarget({ '/': { body: 'ok' } });
    targetUrl = `${target.url}/`;
  });
  afterAll(() => target.close());
  afterEach(() => h.close());

  /**
   * The paths of the requests the agent starts to its server, in order (undici announces each on
   * creation): what it asked while rejected, whenever the request reaches the server. A call
   * already on its way when the 403 came may arrive later, the more so on a loaded machine.
   */
  function watchStartedCalls(): { paths: string[]; close(): void } {
    const paths: string[] = [];
    const onCreate = (message: unknown): void => {
      const { request } = message as { request: { origin: unknown; path: string } };
      if (String(request.origin).startsWith(new URL(h.server.url).origin)) paths.push(request.path.split('?')[0] ?? '');
    };
    subscribe('undici:request:create', onCreate);
    return { paths, close: () => unsubscribe('undici:request:create', onCreate) };
  }

  /** The pings the server received after seq, with the gaps between them. */
  const trafficAfter = (seq: number) => {
    const pings = h.server
      .requests()
      .filter((r) => r.seq > seq && r.endpoint === 'ping')
      .map((r) => Date.parse(r.at));
    return { pings, gaps: pings.slice(1).map((t, i) => t - (pings[i] ?? t)) };
  };

  it('while disabled (403) only pings, spaced by the recheck delay; once enabled, sync and upload resume', async () => {
    h = await enrolledAgent({ tunables });
    h.assignCheck({ name: 'C', url: targetUrl, interval_sec: 1 });
    await eventually(() => h.server.results(h.monitorId).length > 0, 10_000, 'a first result');

    h.server.admin.disableMonitor(h.monitorId);
    const started = watchStartedCalls();
    await eventually(() => h.agent.state().auth === 'monitor-disabled', 10_000, 'the 403 seen');
    const startedBefore = started.paths.length;
    const from = h.server.requests().at(-1)?.seq ?? 0;
    await eventually(() => trafficAfter(from).pings.length >= 4, 10_000, 'four rechecks');
    started.close();
    // With 50 ms loops, the four loops would have called dozens of times in this window.
    expect(new Set(started.paths.slice(startedBefore))).toEqual(new Set(['/api/ping']));
    // Each recheck is asked a recheck delay after the previous one was answered.
    for (const gap of trafficAfter(from).gaps) expect(gap).toBeGreaterThanOrEqual(authRetryMs - 20);

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
    const started = watchStartedCalls();
    h.server.admin.resetKey(h.monitorId);
    await eventually(() => h.agent.state().auth === 'key-rejected', 10_000, 'the 401 seen');
    const startedBefore = started.paths.length;
    const from = h.server.requests().at(-1)?.seq ?? 0;
    await eventually(() => trafficAfter(from).pings.length >= 3, 10_000, 'three rechecks');
    started.close();
    expect(new Set(started.paths.slice(startedBefore))).toEqual(new Set(['/api/ping']));
    expect(h.agent.snapshot().problems.map((p) => p.kind)).toContain('key-rejected');
  });
});
