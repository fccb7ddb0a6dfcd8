import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpTarget } from '../../targets/index.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { closedPort } from '../../targets/ports.ts';

describe('status, heartbeat and connectivity outages against the reference server', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('reports version, uptime and unsent results in status, and pings', async () => {
    h = await enrolledAgent({ tunables: { statusIntervalMs: 100, pingIntervalMs: 100, uploadIntervalMs: 3_600_000 } });
    h.agent.outbox.insert([{ check_guid: 'x', monitor_id: 'm', ran_at: '2026-11-21T10:00:00.000Z', success: true, http_status: 200, latency_ms: 1 }]);
    const status = await eventually(() => {
      const latest = h.server.latestStatus(h.monitorId);
      return latest !== undefined && latest.status.unsent_results === 1 ? latest : undefined;
    }, 10_000, 'a status with the unsent result');
    expect(status.status.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(status.status.uptime_sec).toBeGreaterThanOrEqual(0);
    expect(status.status).not.toHaveProperty('last_outage_sec');
    await eventually(() => h.server.requests({ endpoint: 'ping' }).some((r) => r.status === 200), 10_000, 'a ping');
    expect(h.agent.state().lastContactAt).toBeDefined();
  });

  it('a stopped server starts an outage; failures meanwhile are skipped, not reported; the completed outage goes into the next status', async () => {
    const target = await startHttpTarget({ '/': { status: 200, body: 'ok' } });
    h = await enrolledAgent({
      tunables: { syncIntervalMs: 100, uploadIntervalMs: 100, statusIntervalMs: 100, pingIntervalMs: 100, offlineProbeMs: 50 },
    });
    const down = h.server.admin.createCheck({ name: 'down', url: `http://127.0.0.1:${await closedPort()}/`, interval_sec: 1, orgId: h.orgId });
    const up = h.server.admin.createCheck({ name: 'up', url: target.url, interval_sec: 1, orgId: h.orgId });
    for (const c of [down, up]) h.server.admin.assign(c.guid, h.monitorId);
    await h.agent.syncNow();
    // Online, a failing check is reported as a failure.
    await eventually(() => h.server.results(h.monitorId).some((r) => r.checkGuid === down.guid && !r.success), 10_000, 'reported failure');

    await h.server.stop();
    await eventually(() => !h.agent.state().online, 10_000, 'offline');
    const offlineSince = h.agent.state().offlineSince;
    expect(offlineSince).toBeDefined();
    // The counter moves at run time, the history row a moment later when its batch commits.
    const skipped = await eventually(() => {
      const rows = h.agent.history.recent(down.guid, 50).filter((e) => e.skipped);
      return rows.length >= 2 ? rows : undefined;
    }, 10_000, 'skipped failures while offline');
    expect(h.agent.state().skippedOffline).toBeGreaterThanOrEqual(2);
    expect(skipped.every((e) => !e.success)).toBe(true);

    await h.server.start();
    await eventually(() => h.agent.state().online, 10_000, 'online again');
    const status = await eventually(
      () => h.server.statuses(h.monitorId).find((s) => s.status.last_outage_ended_at !== undefined),
      10_000,
      'a status with the outage',
    );
    expect(status.status.last_outage_sec).toBeGreaterThanOrEqual(0);
    expect(Date.parse(status.status.last_outage_ended_at ?? '')).toBeGreaterThanOrEqual(Date.parse(offlineSince ?? ''));
    // Nothing that ran while offline was reported as a failure; successes still arrive.
    const skippedAt = new Set(skipped.map((e) => e.ran_at));
    await eventually(() => h.agent.outbox.count() === 0, 10_000, 'backlog drained');
    const reported = h.server.results(h.monitorId);
    expect(reported.filter((r) => skippedAt.has(r.ranAt) && r.checkGuid === down.guid)).toEqual([]);
    expect(reported.some((r) => r.checkGuid === up.guid && r.success)).toBe(true);
    const outages = h.agent.snapshot();
    expect(outages.connectivity.online).toBe(true);
    await target.close();
  });

  it('never sends anything of a private definition to the server', async () => {
    const secretPath = '/very-secret-path-4711';
    const target = await startHttpTarget({ [secretPath]: { status: 200, body: 'hello internal-body-text' } });
    const port = new URL(target.url).port;
    h = await enrolledAgent({ tunables: { syncIntervalMs: 100, uploadIntervalMs: 100, statusIntervalMs: 100, pingIntervalMs: 100 } });
    const checks = [
      { guid: 'priv-match', url: `http://admin:pw-hunter2@127.0.0.1:${port}${secretPath}?token=tok-998877`, match_string: 'needle-never-found', headers: { 'X-Secret': 'header-secret-123' }, post_data: 'post-secret-456' },
      { guid: 'priv-redirect', url: `http://127.0.0.1:${port}/nowhere-secret-route`, match_string: '' },
    ];
    const file = join(h.dataDir, 'private.json');
    await writeFile(file, JSON.stringify({ checks }));
    for (const c of checks) {
      const created = h.server.admin.createCheck({ guid: c.guid, name: c.guid, url: 'http://placeholder.invalid/', interval_sec: 1, result_detail_max_chars: 500, orgId: h.orgId });
      h.server.admin.assign(created.guid, h.monitorId);
      h.server.admin.makePrivateDefinition(created.guid);
    }
    await h.agent.setPrivateChecksFile(file);
    await h.agent.syncNow();
    await eventually(() => {
      const guids = new Set(h.server.results(h.monitorId).map((r) => r.checkGuid));
      return guids.has('priv-match') && guids.has('priv-redirect');
    }, 15_000, 'results of both private checks');
    const stored = h.server.results(h.monitorId);
    expect(stored.find((r) => r.checkGuid === 'priv-match')?.success).toBe(false);
    expect(stored.find((r) => r.checkGuid === 'priv-redirect')?.success).toBe(false);
    const everything = h.server.requests().map((r) => `${r.path}?${r.query} ${JSON.stringify(r.headers)} ${r.body}`).join('\n');
    for (const secret of [secretPath, 'tok-998877', 'needle-never-found', 'header-secret-123', 'post-secret-456', 'pw-hunter2', 'nowhere-secret-route', `127.0.0.1:${port}`]) {
      expect(everything).not.toContain(secret);
    }
    // The local history keeps the real reason for the user.
    expect(h.agent.history.recent('priv-match', 1)[0]?.error).toContain('needle-never-found');
    expect(target.requests.length).toBeGreaterThan(0);
    await target.close();
  });
});
