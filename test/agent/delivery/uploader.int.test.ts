import { afterEach, describe, expect, it } from 'vitest';
import type { AgentTunables } from '../../../src-main/agent/defaults.ts';
import type { WireResult } from '../../../src-main/agent/wire/schemas.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { startHttpTarget } from '../../targets/index.ts';

/** Upload is driven by hand here, except where a test says otherwise. */
const manual = {
  syncIntervalMs: 3_600_000,
  uploadIntervalMs: 3_600_000,
  statusIntervalMs: 3_600_000,
  pingIntervalMs: 3_600_000,
};

/** Results belong to the monitor that produced them: the harness's, once it is enrolled. */
let owner = 'm';

function results(guid: string, n: number, from = 0, extra: Partial<WireResult> = {}): WireResult[] {
  return Array.from({ length: n }, (_, i) => ({
    check_guid: guid,
    monitor_id: owner,
    ran_at: new Date(Date.UTC(2026, 10, 21, 8, 0, 0, 0) + (from + i) * 1000).toISOString(),
    success: true,
    http_status: 200,
    latency_ms: 3,
    ...extra,
  }));
}

describe('uploader against the reference server', () => {
  let h: Harness;
  afterEach(() => h.close());

  async function withCheck(tunables: Partial<AgentTunables> = manual): Promise<string> {
    h = await enrolledAgent({ tunables });
    owner = h.monitorId;
    const check = h.assignCheck({
      name: 'C',
      url: 'http://127.0.0.1:9/',
      interval_sec: 3600,
    });
    h.agent.pause();
    await h.agent.syncNow();
    return check.guid;
  }

  const resultCalls = () => h.server.requests({ endpoint: 'results' });

  it('drains a backlog in order, at most 500 results and 1 MiB per call, deleting only what was accepted', async () => {
    const guid = await withCheck();
    // 1,200 small results, then 400 large ones that force a byte cut before 500.
    h.store.outbox.insert(results(guid, 1200));
    h.store.outbox.insert(results(guid, 400, 1200, { success: false, error: 'e'.repeat(4000) }));
    const outcome = await h.agent.uploadNow();
    expect(outcome).toMatchObject({ ok: true, report: { delivered: 1600, accepted: 1600, rejected: 0 } });
    expect(h.store.outbox.count()).toBe(0);
    const calls = resultCalls();
    for (const call of calls) {
      const body = JSON.parse(call.body) as { results: WireResult[] };
      expect(body.results.length).toBeLessThanOrEqual(500);
      expect(Buffer.byteLength(call.body)).toBeLessThanOrEqual(1024 * 1024);
    }
    expect(calls.length).toBeGreaterThanOrEqual(4);
    const stored = h.server.results(h.monitorId).map((r) => r.ranAt);
    expect(stored).toEqual([...stored].sort());
    expect(stored).toHaveLength(1600);
  });

  it('a check that goes down or recovers is uploaded at once; runs that change nothing wait for the period', async () => {
    // The server alerts from results: a state change is news, a check passing again is not. At
    // rest the upload period was what cost most (issue 26): a call each, ~2.7 ms of CPU.
    const target = await startHttpTarget({ '/': { body: 'up' } });
    try {
      h = await enrolledAgent({ tunables: { ...manual, startupSpreadMs: 50 } });
      h.assignCheck({ name: 'C', url: `${target.url}/`, interval_sec: 1 });
      await h.agent.syncNow();
      await eventually(() => h.store.outbox.count() >= 2, 10_000, 'two passing runs');
      expect(h.server.results(h.monitorId)).toHaveLength(0);

      target.route('/', { status: 503 });
      await eventually(() => h.server.results(h.monitorId).some((r) => !r.success), 10_000, 'the failure uploaded');
      // Failing again is not news: it waits, as the passing runs did.
      const uploaded = h.server.results(h.monitorId).length;
      const waiting = h.store.outbox.count();
      await eventually(() => h.store.outbox.count() >= waiting + 2, 10_000, 'two more failing runs');
      expect(h.server.results(h.monitorId)).toHaveLength(uploaded);

      target.route('/', { body: 'up again' });
      await eventually(() => h.server.results(h.monitorId).at(-1)?.success === true, 10_000, 'the recovery uploaded');
    } finally {
      await target.close();
    }
  });

  it('Upload now while an upload runs joins it: each result is sent once, the progress stays until the end, and both callers hear of all that was sent', async () => {
    const guid = await withCheck();
    h.server.faults.delay(500, { endpoint: 'results', times: 1 });
    h.store.outbox.insert(results(guid, 30));
    // The loop's round (slow: the server takes half a second), then the user's click.
    const round = h.agent.uploadNow();
    expect(h.agent.state().uploading).toEqual({ delivered: 0 });
    const settled: string[] = [];
    void round.then(() => settled.push('round'));
    const click = await h.agent.uploadNow();
    // Two drains side by side sent the same rows twice, and the quicker one took the progress off
    // the window while the other was still sending.
    expect(settled.includes('round') || h.agent.state().uploading !== undefined).toBe(true);
    expect(click).toMatchObject({ ok: true, report: { delivered: 30, rejected: 0 } });
    expect(await round).toMatchObject({ ok: true, report: { delivered: 30, rejected: 0 } });
    expect(resultCalls()).toHaveLength(1);
    expect(h.server.results(h.monitorId)).toHaveLength(30);
    expect(h.agent.state().uploading).toBeUndefined();
  });

  it('a drain also sends what arrives while it runs, and its progress counts them', async () => {
    const guid = await withCheck();
    h.server.faults.delay(300, { endpoint: 'results', times: 1 });
    h.store.outbox.insert(results(guid, 600));
    const seen: number[] = [];
    const off = h.agent.onChange(() => {
      const progress = h.agent.state().uploading;
      if (progress !== undefined && seen.at(-1) !== progress.delivered) seen.push(progress.delivered);
    });
    const upload = h.agent.uploadNow();
    // New runs come in while the first batch is on its way.
    h.store.outbox.insert(results(guid, 300, 600));
    expect(await upload).toMatchObject({ ok: true, report: { delivered: 900, rejected: 0 } });
    off();
    // The window reads "delivered of delivered + waiting" from one snapshot (UnsentView).
    expect(seen).toEqual([0, 500, 900]);
    expect(h.store.outbox.count()).toBe(0);
    expect(h.server.results(h.monitorId)).toHaveLength(900);
  });

  it("the stop's last upload waits for an Upload now under way only as long as its own bound", async () => {
    const guid = await withCheck({ ...manual, finalUploadMs: 200 });
    h.server.faults.delay(3_000, { endpoint: 'results', times: 1 });
    h.store.outbox.insert(results(guid, 5));
    const order: string[] = [];
    const click = h.agent.uploadNow().then(() => order.push('upload now'));
    await h.agent.stop();
    order.push('stopped');
    await click;
    expect(order).toEqual(['stopped', 'upload now']);
  });

  it('splits a batch the server answers 413 for', async () => {
    const guid = await withCheck();
    h.store.outbox.insert(results(guid, 300));
    const fault = h.server.faults.respond(413, { endpoint: 'results', times: 1, body: 'body too large' });
    const outcome = await h.agent.uploadNow();
    expect(fault.hits).toBe(1);
    expect(outcome).toMatchObject({ ok: true, report: { delivered: 300, rejected: 0 } });
    const sizes = resultCalls().map((c) => (JSON.parse(c.body) as { results: unknown[] }).results.length);
    expect(sizes).toEqual([300, 150, 150]);
    expect(h.server.results(h.monitorId)).toHaveLength(300);
  });

  it('isolates the one result the server refuses (400), sets it aside with the reason, and delivers the rest', async () => {
    const guid = await withCheck();
    const batch = results(guid, 100);
    batch[37] = { ...batch[37], ran_at: 'yesterday' } as WireResult;
    h.store.outbox.insert(batch);
    const outcome = await h.agent.uploadNow();
    expect(outcome).toMatchObject({ ok: true, report: { delivered: 99, rejected: 1 } });
    expect(h.server.results(h.monitorId)).toHaveLength(99);
    const [rejected] = h.store.outbox.rejected();
    expect(rejected).toMatchObject({ check_guid: guid, ran_at: 'yesterday' });
    expect(rejected?.reason).toContain('ran_at');
    expect(h.agent.snapshot().problems.map((p) => p.kind)).toContain('rejected-results');
  });

  it('counts accepted lower than sent (unassigned checks) as delivered, never retried', async () => {
    const guid = await withCheck();
    h.store.outbox.insert(results(guid, 5));
    h.store.outbox.insert(results('not-assigned', 5));
    const outcome = await h.agent.uploadNow();
    expect(outcome).toMatchObject({ ok: true, report: { delivered: 10, accepted: 5 } });
    expect(resultCalls()).toHaveLength(1);
    expect(h.store.outbox.count()).toBe(0);
  });

  it('retries after a lost answer without double counting on the server', async () => {
    const guid = await withCheck({ ...manual, uploadIntervalMs: 100 });
    const fault = h.server.faults.respond(502, { endpoint: 'results', times: 1, afterHandling: true });
    h.store.outbox.insert(results(guid, 50));
    await eventually(() => h.store.outbox.count() === 0, 10_000, 'outbox drained');
    expect(fault.hits).toBe(1);
    expect(resultCalls().length).toBeGreaterThanOrEqual(2);
    expect(h.server.results(h.monitorId)).toHaveLength(50);
  });

  it('backs off on 5xx and network failures, keeps everything, and delivers once the server is back', async () => {
    const guid = await withCheck({ ...manual, uploadIntervalMs: 100 });
    h.server.faults.respond(503, { endpoint: 'results', times: 3 });
    h.store.outbox.insert(results(guid, 20));
    await eventually(() => h.store.outbox.count() === 0, 10_000, 'outbox drained');
    expect(h.server.results(h.monitorId)).toHaveLength(20);
    expect(h.agent.state().loops.upload.failures).toBe(0);
  });

  it('on 401 stops uploading, keeps the results, says so, and asks at most once per retry period', async () => {
    const guid = await withCheck({ ...manual, uploadIntervalMs: 50, authRetryMs: 400 });
    h.server.admin.resetKey(h.monitorId);
    h.store.outbox.insert(results(guid, 10));
    await eventually(() => h.agent.state().auth === 'key-rejected', 10_000, 'key rejected');
    const first = resultCalls().length;
    // Counted, not waited for: each recheck of the key (the ping) comes 400-800 ms after the last,
    // so two of them span at least 800 ms, where a 50 ms upload interval would allow 16 calls.
    const pings = (): number => h.server.requests({ endpoint: 'ping' }).length;
    const pingsBefore = pings();
    await eventually(() => pings() >= pingsBefore + 2, 10_000, 'two rechecks of the key');
    expect(resultCalls().length - first).toBeLessThanOrEqual(3);
    expect(h.store.outbox.count()).toBe(10);
    expect(h.agent.snapshot().problems[0]).toMatchObject({ kind: 'key-rejected', action: 'enroll' });
  });

  it('on 403 pauses probing and uploading, and resumes by itself when the monitor is enabled again', async () => {
    h = await enrolledAgent({ tunables: { ...manual, uploadIntervalMs: 50, pingIntervalMs: 50, authRetryMs: 300 } });
    owner = h.monitorId;
    const check = h.assignCheck({
      name: 'C',
      url: 'http://127.0.0.1:9/',
      interval_sec: 1,
    });
    await h.agent.syncNow();
    h.server.admin.disableMonitor(h.monitorId);
    h.store.outbox.insert(results(check.guid, 10));
    await eventually(() => h.agent.state().auth === 'monitor-disabled', 10_000, 'monitor disabled');
    expect(h.agent.snapshot().checks[0]?.health).toBe('paused');
    // Runs started: one already going when the 403 came may still finish and add its result,
    // the more so on a loaded machine, so finished runs and the outbox size are no measure.
    const started = (): number => h.agent.snapshot().scheduler?.executed ?? 0;
    const startedBefore = started();
    const runsBefore = h.agent.checkHistory(check.guid, 1000).length;
    const unsent = h.store.outbox.count();
    expect(unsent).toBeGreaterThanOrEqual(10);
    // A 1 s check would start at least once in that time; while disabled it must not. Counted, not
    // waited for: each recheck (the ping) comes 300-600 ms after the last, so four span 1.2 s.
    const pings = (): number => h.server.requests({ endpoint: 'ping' }).length;
    const pingsBefore = pings();
    await eventually(() => pings() >= pingsBefore + 4, 10_000, 'four rechecks of the monitor');
    expect(started()).toBe(startedBefore);
    // Nothing was delivered (and so nothing deleted) while disabled.
    expect(h.store.outbox.count()).toBeGreaterThanOrEqual(unsent);
    h.server.admin.enableMonitor(h.monitorId);
    await eventually(
      () => h.agent.state().auth === 'ok' && h.store.outbox.count() === 0,
      10_000,
      'resumed and drained',
    );
    expect(h.server.results(h.monitorId).length).toBeGreaterThanOrEqual(unsent);
    await eventually(() => h.agent.checkHistory(check.guid, 1000).length > runsBefore, 10_000, 'probing resumed');
    expect(h.agent.snapshot().checks[0]?.health).not.toBe('paused');
  });
});

describe('uploader against broken answers', () => {
  let h: Harness;
  afterEach(() => h.close());

  it.each([
    { name: 'not JSON', inject: (s: Harness['server']) => s.faults.invalidJson({ endpoint: 'results', times: 2 }) },
    {
      name: 'a wrong schema',
      inject: (s: Harness['server']) => s.faults.schemaViolation({ endpoint: 'results', times: 2 }),
    },
    {
      name: 'huge',
      inject: (s: Harness['server']) => s.faults.hugeBody({ endpoint: 'results', times: 1, bytes: 40 * 1024 * 1024 }),
    },
    {
      name: 'a dropped connection',
      inject: (s: Harness['server']) => s.faults.reset({ endpoint: 'results', times: 2 }),
    },
  ])('keeps the results when the answer is $name, and delivers them later', async ({ inject }) => {
    h = await enrolledAgent({ tunables: { syncIntervalMs: 3_600_000, uploadIntervalMs: 100 } });
    owner = h.monitorId;
    const check = h.assignCheck({
      name: 'C',
      url: 'http://127.0.0.1:9/',
      interval_sec: 3600,
    });
    h.agent.pause();
    await h.agent.syncNow();
    const fault = inject(h.server);
    h.store.outbox.insert(results(check.guid, 30));
    await eventually(() => fault.hits > 0, 10_000, 'the fault');
    expect(h.store.outbox.count()).toBeGreaterThan(0);
    await eventually(() => h.store.outbox.count() === 0, 15_000, 'drained after the fault');
    expect(h.server.results(h.monitorId)).toHaveLength(30);
  });
});
