// GET /api/checks: since deltas, the server_time watermark, unassignment, deletion and
// private-definition wiping, over real HTTP on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer, type WireCheck } from './reference-server/index.ts';
import {
  call,
  enroll,
  manualClock,
  nth,
  ok,
  withOrg,
  type Enrolled,
  type ManualClock,
} from './reference-server/testing.ts';

interface Delta {
  checks: WireCheck[];
  server_time: string;
}

let server: ReferenceServer;
let clock: ManualClock;
let org: { orgId: string; token: string };
let monitor: Enrolled;

beforeEach(async () => {
  clock = manualClock();
  server = await startReferenceServer({ now: clock.now });
  org = withOrg(server);
  monitor = await enroll(server, org.token);
});
afterEach(() => server.close());

async function delta(since?: string, apiKey = monitor.apiKey): Promise<Delta> {
  const query = since === undefined ? '' : `?since=${encodeURIComponent(since)}`;
  return ok(await call(server.url, 'GET', `/api/checks${query}`, { auth: apiKey })) as Delta;
}

function newCheck(extra: Partial<Parameters<ReferenceServer['admin']['createCheck']>[0]> = {}) {
  const check = server.admin.createCheck({
    name: 'Home page',
    url: 'https://example.test/',
    orgId: org.orgId,
    ...extra,
  });
  server.admin.assign(check.guid, monitor.monitorId);
  return check;
}

const fixedWidth = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('since', () => {
  it('defaults to the epoch and sends every wire field', async () => {
    const check = newCheck({
      timeout_sec: 20,
      match_string: 'Welcome',
      match_mode: 'not_contains',
      post_data: 'a=1',
      headers: { 'X-Probe': 'yes' },
      disable_redirects: true,
      status_code_op: 'eq',
      status_code_value: 204,
      max_response_time_ms: 1500,
      down_interval_sec: 30,
      result_detail_max_chars: 100,
      insecure_skip_verify: true,
      invert_result: true,
      cert_expiry_warn_days: 14,
      enabled: false,
      interval_sec: 45,
    });
    const { checks, server_time } = await delta();
    expect(checks).toHaveLength(1);
    expect(checks[0]).toEqual({
      ...check.definition,
      guid: check.guid,
      deleted: false,
      updated_at: checks[0]?.updated_at,
    });
    expect(checks[0]?.updated_at).toMatch(fixedWidth);
    expect(server_time).toMatch(fixedWidth);
    expect(server_time >= (checks[0]?.updated_at ?? '')).toBe(true);
    expect(await delta('1970-01-01T00:00:00Z')).toEqual({ checks, server_time: expect.any(String) as string });
  });

  it.each([
    'yesterday',
    '',
    '2026-11-21',
    '2026-11-21T10:29:50',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-11-21 10:29:50Z',
    '2026-11-21T25:00:00Z',
    '2026-11-21T10:29:50+2:00',
  ])('answers 400 for since=%j', async (since) => {
    const answer = await call(server.url, 'GET', `/api/checks?since=${encodeURIComponent(since)}`, {
      auth: monitor.apiKey,
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/since/);
  });

  it('answers 400 when since is given twice', async () => {
    const t = '2026-11-21T10:29:50Z';
    expect((await call(server.url, 'GET', `/api/checks?since=${t}&since=${t}`, { auth: monitor.apiKey })).status).toBe(
      400,
    );
  });

  it('accepts any RFC 3339 offset and precision', async () => {
    newCheck();
    expect((await delta('2026-11-21T11:29:49.999999999+01:00')).checks).toHaveLength(1);
    expect((await delta('2026-11-21t10:29:50.5z')).checks).toHaveLength(0);
  });

  it('sends only what changed strictly after since, even within one millisecond', async () => {
    const a = newCheck({ name: 'a' });
    const b = newCheck({ name: 'b' });
    const first = await delta();
    expect(first.checks.map((c) => c.guid)).toEqual([a.guid, b.guid]);
    expect(first.checks[0]?.updated_at).not.toBe(first.checks[1]?.updated_at);
    expect((await delta(first.server_time)).checks).toEqual([]);
    // The clock does not move at all: stamps must still order and separate the changes.
    server.admin.updateCheck(a.guid, { interval_sec: 120 });
    const second = await delta(first.server_time);
    expect(second.checks.map((c) => [c.guid, c.interval_sec])).toEqual([[a.guid, 120]]);
    expect(second.checks[0]?.updated_at.slice(0, 19)).toBe(first.server_time.slice(0, 19)); // same second
    expect(nth(second.checks, 0).updated_at > first.server_time).toBe(true);
    server.admin.updateCheck(b.guid, { name: 'b2' });
    server.admin.updateCheck(b.guid, { name: 'b3' });
    const third = await delta(second.server_time);
    expect(third.checks.map((c) => c.name)).toEqual(['b3']);
    expect((await delta(third.server_time)).checks).toEqual([]);
  });

  it('gives a watermark no later change can fall under', async () => {
    clock.set(new Date('2026-11-21T10:30:00.000Z'));
    const first = await delta();
    expect(first.server_time).toBe('2026-11-21T10:30:00.000000Z');
    const check = newCheck(); // same clock reading as the watermark
    const second = await delta(first.server_time);
    expect(second.checks.map((c) => c.guid)).toEqual([check.guid]);
    expect(nth(second.checks, 0).updated_at > first.server_time).toBe(true);
  });

  it('keeps stamps increasing when the clock goes back', async () => {
    const first = await delta();
    clock.advance(-60_000);
    newCheck();
    const second = await delta(first.server_time);
    expect(second.checks).toHaveLength(1);
    expect(second.server_time >= nth(second.checks, 0).updated_at).toBe(true);
  });

  it('sends a newly assigned old check, and partial updates keep other fields', async () => {
    const check = server.admin.createCheck({
      name: 'old',
      url: 'tcp://127.0.0.1:22',
      orgId: org.orgId,
      timeout_sec: 5,
    });
    const before = await delta();
    expect(before.checks).toEqual([]);
    clock.advance(1000);
    server.admin.assign(check.guid, monitor.monitorId);
    server.admin.assign(check.guid, monitor.monitorId); // idempotent
    const after = await delta(before.server_time);
    expect(after.checks.map((c) => c.guid)).toEqual([check.guid]);
    expect(nth(after.checks, 0).updated_at > check.updatedAt).toBe(true);
    server.admin.updateCheck(check.guid, { name: 'renamed', timeout_sec: null });
    const renamed = (await delta(after.server_time)).checks[0];
    expect(renamed).toMatchObject({ name: 'renamed', url: 'tcp://127.0.0.1:22' });
    expect(renamed).not.toHaveProperty('timeout_sec');
  });
});

describe('lifecycle in the delta', () => {
  it('keeps a deleted check in the delta', async () => {
    const check = newCheck();
    const first = await delta();
    server.admin.deleteCheck(check.guid);
    const second = await delta(first.server_time);
    expect(second.checks).toMatchObject([{ guid: check.guid, deleted: true }]);
    expect((await delta()).checks).toMatchObject([{ guid: check.guid, deleted: true }]);
    expect((await delta(second.server_time)).checks).toEqual([]);
    expect(() => server.admin.updateCheck(check.guid, { name: 'x' })).toThrow(/deleted/);
  });

  it('sends an unassigned check once more, disabled and deleted, then never again', async () => {
    const check = newCheck();
    const first = await delta();
    server.admin.unassign(check.guid, monitor.monitorId);
    const second = await delta(first.server_time);
    expect(second.checks).toMatchObject([{ guid: check.guid, enabled: false, deleted: true }]);
    server.admin.updateCheck(check.guid, { name: 'changed after unassignment' });
    expect((await delta(second.server_time)).checks).toEqual([]);
    expect(server.admin.check(check.guid)?.deleted).toBe(false); // only this monitor lost it
    server.admin.assign(check.guid, monitor.monitorId);
    expect((await delta(second.server_time)).checks).toMatchObject([
      { guid: check.guid, enabled: true, deleted: false },
    ]);
  });

  it('sends a private-definition check with its definition wiped', async () => {
    const check = newCheck({
      url: 'https://user:pw@intranet.test/x',
      match_string: 'secret',
      post_data: 'q=1',
      headers: { 'X-Token': 't' },
    });
    const first = await delta();
    const wiped = server.admin.makePrivateDefinition(check.guid);
    expect(wiped.definition).toMatchObject({ url: '', match_string: '' });
    expect(wiped.definition).not.toHaveProperty('post_data');
    const second = await delta(first.server_time);
    expect(second.checks).toHaveLength(1);
    const sent = nth(second.checks, 0);
    expect(sent).toMatchObject({ guid: check.guid, url: '', match_string: '', enabled: true, deleted: false });
    expect(sent).not.toHaveProperty('post_data');
    expect(sent).not.toHaveProperty('headers');
    expect(JSON.stringify(sent)).not.toMatch(/intranet|secret|X-Token/);
    expect(() => server.admin.updateCheck(check.guid, { url: 'http://x.test/' })).toThrow(/private/);
    server.admin.updateCheck(check.guid, { interval_sec: 10 });
    expect((await delta(second.server_time)).checks).toMatchObject([{ interval_sec: 10, url: '' }]);
  });

  it('sends each monitor only its own checks, and auto-assigns in auto-assign organisations', async () => {
    const other = await enroll(server, org.token);
    const mine = newCheck();
    expect((await delta()).checks.map((c) => c.guid)).toEqual([mine.guid]);
    expect((await delta(undefined, other.apiKey)).checks).toEqual([]);
    const auto = server.admin.createOrganization('Auto', { autoAssign: true });
    const early = server.admin.enrollMonitor(auto.id);
    const check = server.admin.createCheck({ name: 'auto', url: 'http://127.0.0.1:1/', orgId: auto.id });
    const late = await enroll(server, server.admin.mintOrgToken(auto.id).token);
    expect(server.admin.assignedChecks(early.monitorId).map((c) => c.guid)).toEqual([check.guid]);
    expect((await delta(undefined, late.apiKey)).checks.map((c) => c.guid)).toEqual([check.guid]);
    expect(() => server.admin.assign(check.guid, monitor.monitorId)).toThrow(/organisation/);
  });
});
