// A results endpoint that answers 400 to everything for a while (a broken server release, a
// middlebox) is the server's fault, not the results': nothing is set aside, the agent backs off,
// and everything is delivered once the server accepts again (issue 24 §1, issue 27 §7). The upload
// loop's pacing runs on a fake clock, which is also the reference server's clock, so the fault's
// window and the backoff are measured in the same time; the calls are real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { backoffDelay } from '../../../src-main/agent/delivery/backoff.ts';
import { createServiceCalls } from '../../../src-main/agent/delivery/service-calls.ts';
import { createUploadLoop } from '../../../src-main/agent/delivery/upload-loop.ts';
import { agentDefaults } from '../../../src-main/agent/defaults.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { openAgentStore, type AgentStore } from '../../../src-main/agent/store/agent-store.ts';
import { createApiClient, type ApiClient } from '../../../src-main/agent/wire/api-client.ts';
import type { WireResult } from '../../../src-main/agent/wire/schemas.ts';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/index.ts';
import { wireLimits } from '../../../src-main/agent/wire/limits.ts';
import { withOrg } from '../../reference-server/testing.ts';
import { tempDataDir } from '../../support/cli.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';

const uploadIntervalMs = agentDefaults.uploadIntervalMs;
const policy = agentDefaults.retryBackoff;

interface Setup {
  clock: FakeClock;
  server: ReferenceServer;
  store: AgentStore;
  client: ApiClient;
  /** One pass of the upload loop's body: uploads (or waits) and says how long to sleep. */
  step: (signal: AbortSignal) => Promise<number>;
  monitorId: string;
  guid: string;
}

let open: Setup | undefined;
afterEach(async () => {
  if (open === undefined) return;
  open.store.close();
  await open.client.close();
  await open.server.close();
  open = undefined;
});

async function setup(): Promise<Setup> {
  const clock = createFakeClock();
  const server = await startReferenceServer({ now: () => new Date(clock.now()) });
  const { orgId, token } = withOrg(server);
  const client = createApiClient({ baseUrl: server.url, userAgent: 'test', now: () => clock.now() });
  const enrolled = await client.enroll(token, { name: 'pc', region: 'r', country: 'DE', city: 'Berlin' });
  if (!enrolled.ok) throw new Error(enrolled.error.message);
  const { api_key: apiKey, monitor_id: monitorId } = enrolled.value;
  const check = server.admin.createCheck({ name: 'C', url: 'http://127.0.0.1:9/', interval_sec: 60, orgId });
  server.admin.assign(check.guid, monitorId);
  const store = openAgentStore(await tempDataDir(), agentDefaults);
  store.outbox.setOwner(monitorId);
  const live = createLiveState(initialState(new Date(clock.now()), 0));
  const calls = createServiceCalls({
    clock,
    log: silentLogger,
    tunables: agentDefaults,
    identity: () => ({ apiKey, monitorId, server: server.url, client }),
    state: live.get,
    update: live.update,
    onReachable: () => undefined,
    onUnreachable: () => undefined,
    onAuthChanged: () => undefined,
  });
  const uploads = createUploadLoop({
    outbox: store.outbox,
    calls,
    live,
    log: silentLogger,
    now: () => new Date(clock.now()),
  });
  const step = calls.paced('upload', uploadIntervalMs, (signal) => uploads.upload(signal));
  open = { clock, server, store, client, step, monitorId, guid: check.guid };
  return open;
}

function results(s: Setup, n: number): WireResult[] {
  return Array.from({ length: n }, (_, i) => ({
    check_guid: s.guid,
    monitor_id: s.monitorId,
    ran_at: new Date(s.clock.now() - (n - i) * 1000).toISOString(),
    success: true,
    http_status: 200,
    latency_ms: 3,
  }));
}

/** The fewest rounds a loop backing off by `policy` can start in `windowMs` (jitter at its most). */
function maxRoundsWithin(windowMs: number): number {
  let rounds = 1;
  let at = 0;
  for (let attempt = 1; ; attempt++) {
    at += Math.min(
      uploadIntervalMs * 10,
      backoffDelay(attempt, policy, () => 1),
    );
    if (at >= windowMs) return rounds;
    rounds++;
  }
}

describe('a results endpoint that refuses everything for a while', () => {
  it('keeps every result, backs off, and delivers them all once the server accepts again', async () => {
    const s = await setup();
    const faultMs = 60_000;
    const fault = s.server.faults.respond(400, {
      endpoint: 'results',
      forMs: faultMs,
      body: 'invalid result: ran_at must be RFC 3339',
    });
    s.store.outbox.insert(results(s, 3000));
    const signal = new AbortController().signal;
    const calls = (): number => s.server.requests({ endpoint: 'results' }).length;
    const started = s.clock.monotonic();
    let duringFault = 0;
    while (s.clock.monotonic() - started < faultMs + 5 * 60_000 && s.store.outbox.count() > 0) {
      const delay = await s.step(signal);
      if (fault.active) duringFault = calls();
      await s.clock.advance(delay);
    }
    expect(fault.hits).toBeGreaterThan(0);
    expect(s.store.outbox.rejectedCount()).toBe(0);
    expect(s.store.outbox.count()).toBe(0);
    expect(s.server.results(s.monitorId)).toHaveLength(3000);
    // Each round costs a bisect's depth in calls at most; the rounds are spaced by the backoff.
    const perRound = Math.ceil(Math.log2(wireLimits.resultsPerBatch)) + 4;
    expect(duringFault).toBeLessThanOrEqual(maxRoundsWithin(faultMs) * perRound);
  });

  it('still sets aside a real poison row: the rest of its batch was accepted', async () => {
    const s = await setup();
    const batch = results(s, 40);
    batch[0] = { ...batch[0], ran_at: 'yesterday' } as WireResult;
    batch[1] = { ...batch[1], ran_at: 'the day before' } as WireResult;
    s.store.outbox.insert(batch);
    await s.step(new AbortController().signal);
    expect(s.server.results(s.monitorId)).toHaveLength(38);
    expect(
      s.store.outbox
        .rejected()
        .map((r) => r.ran_at)
        .sort(),
    ).toEqual(['the day before', 'yesterday']);
    expect(s.store.outbox.count()).toBe(0);
  });

  it('sends set-aside results again when asked', async () => {
    const s = await setup();
    const batch = results(s, 10);
    const fault = s.server.faults.respond(400, { endpoint: 'results', times: 1, body: 'broken release' });
    s.store.outbox.insert(batch.slice(0, 1));
    // One result alone, refused: nothing else was accepted, so it is kept, not set aside.
    await s.step(new AbortController().signal);
    expect(fault.hits).toBe(1);
    expect(s.store.outbox.rejectedCount()).toBe(0);
    expect(s.store.outbox.count()).toBe(1);
    // Set aside by an older version: the user can send it again.
    const [row] = s.store.outbox.peek(1, 1 << 20);
    if (row === undefined) throw new Error('no row');
    s.store.outbox.reject(row, 'refused', new Date(s.clock.now()));
    expect(s.store.outbox.resendRejected()).toBe(1);
    expect(s.store.outbox.rejectedCount()).toBe(0);
    await s.clock.advance(agentDefaults.retryBackoff.maxMs);
    await s.step(new AbortController().signal);
    expect(s.server.results(s.monitorId)).toHaveLength(1);
  });
});
