import { afterEach, describe, expect, it } from 'vitest';
import { startHttpTarget, startSilentPort } from '../../targets/index.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { closedPort } from '../../targets/ports.ts';

describe('status, heartbeat and connectivity outages against the reference server', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('reports version, uptime and unsent results in status, and pings', async () => {
    h = await enrolledAgent({ tunables: { statusIntervalMs: 100, pingIntervalMs: 100, uploadIntervalMs: 3_600_000 } });
    h.store.outbox.insert([
      {
        check_guid: 'x',
        monitor_id: h.monitorId,
        ran_at: '2026-11-21T10:00:00.000Z',
        success: true,
        http_status: 200,
        latency_ms: 1,
      },
    ]);
    const status = await eventually(
      () => {
        const latest = h.server.latestStatus(h.monitorId);
        return latest !== undefined && latest.status.unsent_results === 1 ? latest : undefined;
      },
      10_000,
      'a status with the unsent result',
    );
    expect(status.status.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(status.status.uptime_sec).toBeGreaterThanOrEqual(0);
    expect(status.status).not.toHaveProperty('last_outage_sec');
    await eventually(() => h.server.requests({ endpoint: 'ping' }).some((r) => r.status === 200), 10_000, 'a ping');
    expect(h.agent.state().lastContactAt).toBeDefined();
  });

  it('a server refusing connections is "server unavailable": real failures stay failures, are kept and uploaded once it is back; no outage', async () => {
    const target = await startHttpTarget({
      '/503': { status: 503, body: 'busy' },
      '/500': { status: 500, body: 'boom' },
      '/ok': { status: 200, body: 'ok' },
    });
    h = await enrolledAgent({ tunables: { offlineProbeMs: 50 } });
    const refusedPort = await closedPort();
    const checks = {
      s503: h.assignCheck({ name: '503', url: `${target.url}/503`, interval_sec: 1 }),
      s500: h.assignCheck({ name: '500', url: `${target.url}/500`, interval_sec: 1 }),
      refused: h.assignCheck({
        name: 'refused',
        url: `http://127.0.0.1:${refusedPort}/`,
        interval_sec: 1,
      }),
      up: h.assignCheck({ name: 'up', url: `${target.url}/ok`, interval_sec: 1 }),
    };
    await h.agent.syncNow();
    await eventually(
      () => h.server.results(h.monitorId).some((r) => r.checkGuid === checks.refused.guid),
      10_000,
      'a first result',
    );

    await h.server.stop();
    const stoppedAt = new Date().toISOString();
    // Runs while the server refuses: kept as real results (not skipped), waiting in the outbox.
    const keptWhileDown = await eventually(
      () => {
        const rows = [checks.s503, checks.s500, checks.refused].map((c) =>
          h.agent.checkHistory(c.guid, 50).filter((e) => e.ran_at > stoppedAt),
        );
        return rows.every((r) => r.length >= 2) ? rows.flat() : undefined;
      },
      15_000,
      'failures recorded while the server refuses',
    );
    expect(keptWhileDown.every((e) => !e.success && !e.skipped)).toBe(true);
    const snapshot = h.agent.snapshot();
    expect(snapshot.connectivity.online).toBe(true);
    expect(snapshot.skippedOffline).toBe(0);
    expect(snapshot.counts.down).toBe(3);
    expect(snapshot.counts.skipped).toBe(0);

    await h.server.start();
    const sent = await eventually(
      () => {
        const results = h.server.results(h.monitorId).filter((r) => r.ranAt > stoppedAt);
        const ranAt = new Set(results.map((r) => r.ranAt + r.checkGuid));
        return keptWhileDown.every((e) => ranAt.has(e.ran_at + e.check_guid)) ? results : undefined;
      },
      15_000,
      'every run made while the server refused, uploaded',
    );
    for (const c of [checks.s503, checks.s500, checks.refused])
      expect(sent.filter((r) => r.checkGuid === c.guid).every((r) => !r.success)).toBe(true);
    expect(sent.find((r) => r.checkGuid === checks.s503.guid)?.httpStatus).toBe(503);
    expect(sent.find((r) => r.checkGuid === checks.s500.guid)?.httpStatus).toBe(500);
    expect(h.agent.outages()).toEqual([]);
    expect(h.server.statuses(h.monitorId).some((s) => s.status.last_outage_sec !== undefined)).toBe(false);
    await target.close();
  });

  it('no connectivity target and no check answering starts an outage: runs with no answer are skipped; the outage goes into the next status', async () => {
    const silentTarget = await startSilentPort();
    h = await enrolledAgent({ tunables: { offlineProbeMs: 50 } });
    const silent = h.assignCheck({
      name: 'silent',
      url: `http://127.0.0.1:${silentTarget.port}/`,
      interval_sec: 1,
      timeout_sec: 1,
    });
    await h.agent.syncNow();
    // Online, a target that never answers is a failure like any other.
    await eventually(
      () => h.server.results(h.monitorId).some((r) => r.checkGuid === silent.guid && !r.success),
      10_000,
      'a reported no-answer failure',
    );

    await h.server.stop();
    const silentServer = await startSilentPort(h.server.port);
    await eventually(() => !h.agent.state().online, 15_000, 'offline');
    const offlineSince = h.agent.state().offlineSince ?? '';
    const skipped = await eventually(
      () => {
        const rows = h.agent.checkHistory(silent.guid, 50).filter((e) => e.skipped);
        return rows.length >= 2 ? rows : undefined;
      },
      15_000,
      'skipped runs while offline',
    );
    expect(skipped.every((e) => !e.success)).toBe(true);
    const counts = h.agent.snapshot().counts;
    expect(counts.up + counts.down + counts.pending + counts.skipped + counts.notRun).toBe(counts.total);

    await silentServer.close();
    await h.server.start();
    await eventually(() => h.agent.state().online, 15_000, 'online again');
    const status = await eventually(
      () => h.server.statuses(h.monitorId).find((s) => s.status.last_outage_ended_at !== undefined),
      15_000,
      'a status with the outage',
    );
    expect(status.status.last_outage_sec).toBeGreaterThan(0);
    expect(Date.parse(status.status.last_outage_ended_at ?? '')).toBeGreaterThanOrEqual(Date.parse(offlineSince));
    const skippedAt = new Set(skipped.map((e) => e.ran_at));
    expect(h.server.results(h.monitorId).filter((r) => r.checkGuid === silent.guid && skippedAt.has(r.ranAt))).toEqual(
      [],
    );
    expect(h.agent.outages()[0]?.ended_at).not.toBeNull();
    await silentTarget.close();
  });

  it("the server's address dark while other checks answer is no outage: a dead host's runs are real failures, uploaded once the server is back (issue 27 point 9)", async () => {
    const target = await startHttpTarget({ '/ok': { status: 200, body: 'ok' } });
    const deadHost = await startSilentPort();
    h = await enrolledAgent({ tunables: { offlineProbeMs: 50 } });
    const dead = h.assignCheck({
      name: 'dead LAN host',
      url: `http://127.0.0.1:${deadHost.port}/`,
      interval_sec: 1,
      timeout_sec: 1,
    });
    h.assignCheck({ name: 'up', url: `${target.url}/ok`, interval_sec: 1 });
    await h.agent.syncNow();
    await eventually(() => h.server.results(h.monitorId).some((r) => r.checkGuid === dead.guid), 10_000, 'a result');

    await h.server.stop();
    const darkServer = await startSilentPort(h.server.port);
    const darkSince = new Date().toISOString();
    const failures = await eventually(
      () => {
        const rows = h.agent.checkHistory(dead.guid, 50).filter((e) => e.ran_at > darkSince);
        return rows.length >= 3 ? rows : undefined;
      },
      20_000,
      'runs of the dead host while the server is dark',
    );
    expect(failures.every((e) => !e.success && !e.skipped)).toBe(true);
    expect(h.agent.state().online).toBe(true);
    expect(h.agent.outages()).toEqual([]);

    await darkServer.close();
    await h.server.start();
    await eventually(
      () => {
        const sent = new Set(h.server.results(h.monitorId).map((r) => r.ranAt + r.checkGuid));
        return failures.every((e) => sent.has(e.ran_at + e.check_guid));
      },
      20_000,
      'the dead host failures, uploaded',
    );
    await deadHost.close();
    await target.close();
  });
});
