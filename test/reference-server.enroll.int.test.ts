// POST /api/enroll and the monitor lifecycle around it (reclaim, key reset, disable), over real
// HTTP on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from './reference-server/index.ts';
import { call, enroll, manualClock, profile, withOrg, type ManualClock } from './reference-server/testing.ts';

let server: ReferenceServer;
let clock: ManualClock;
let org: { orgId: string; token: string };

beforeEach(async () => {
  clock = manualClock();
  server = await startReferenceServer({ now: clock.now });
  org = withOrg(server);
});
afterEach(() => server.close());

/** `auth` null sends no bearer credential (then `authorization`, if given, is sent raw). */
const post = (body: unknown, auth: string | null = org.token, authorization?: string) =>
  call(server.url, 'POST', '/api/enroll', { auth: auth ?? undefined, body, authorization });

describe('enroll', () => {
  it('mints a 12-character Crockford id and a key that authenticates', async () => {
    const first = await enroll(server, org.token);
    const second = await enroll(server, org.token);
    expect(first.monitorId).toMatch(/^[0-9a-hjkmnp-tv-z]{12}$/);
    expect(second.monitorId).not.toBe(first.monitorId);
    expect(first.apiKey).not.toBe(second.apiKey);
    expect((await call(server.url, 'GET', '/api/ping', { auth: first.apiKey })).status).toBe(200);
    const monitor = server.monitor(first.monitorId);
    expect(monitor).toMatchObject({ ...profile, orgId: org.orgId, shared: false, enrolled: true, disabled: false });
  });

  it('answers one-line text/plain errors', async () => {
    const answer = await post('{not json');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.text.trimEnd()).not.toContain('\n');
    expect(answer.text).toMatch(/malformed JSON/);
  });

  const badBodies: [string, unknown][] = [
    ['malformed JSON', '{"name": '],
    ['a JSON array', [profile]],
    ['a JSON string', '"hello"'],
    ['missing name', { ...profile, name: undefined }],
    ['missing region', { ...profile, region: undefined }],
    ['missing country', { ...profile, country: undefined }],
    ['missing city', { ...profile, city: undefined }],
    ['empty name', { ...profile, name: '' }],
    ['blank city', { ...profile, city: '   ' }],
    ['numeric region', { ...profile, region: 7 }],
    ['null country', { ...profile, country: null }],
    ['empty id', { ...profile, id: '' }],
    ['numeric id', { ...profile, id: 12 }],
    ['an oversized body (over 64 KiB)', { ...profile, padding: 'x'.repeat(70 * 1024) }],
  ];
  it.each(badBodies)('answers 400 for %s', async (_name, body) => {
    const answer = await post(body);
    expect(answer.status).toBe(400);
  });

  it('names the missing field', async () => {
    expect((await post({ ...profile, city: undefined })).text).toMatch(/^city: missing/);
  });

  it('answers 401 for a missing, malformed or unknown credential, all alike', async () => {
    const { apiKey } = await enroll(server, org.token);
    const revoked = server.admin.mintOrgToken(org.orgId, { label: 'machine-2' });
    server.admin.revokeToken(revoked.id);
    const answers = await Promise.all([
      post(profile, null),
      post(profile, null, org.token), // no scheme
      post(profile, null, `Basic ${org.token}`),
      post(profile, null, 'Bearer'),
      post(profile, 'uet_unknown'),
      post(profile, revoked.token),
      post(profile, apiKey), // an API key is not an enrollment token
    ]);
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401, 401]);
    // Unknown and revoked are indistinguishable.
    expect(answers[4].text).toBe(answers[5].text);
  });

  it('accepts a labelled org token until it is revoked', async () => {
    const token = server.admin.mintOrgToken(org.orgId, { label: 'office-pc' });
    expect(token.label).toBe('office-pc');
    expect((await post(profile, token.token)).status).toBe(200);
    server.admin.revokeToken(token.id);
    expect((await post(profile, token.token)).status).toBe(401);
    expect((await post(profile, org.token)).status).toBe(200); // other tokens unaffected
  });

  it('expires a platform token one hour after minting, by the injected clock', async () => {
    const platform = server.admin.mintPlatformToken();
    clock.advance(60 * 60 * 1000 - 1);
    const fleet = await enroll(server, platform.token);
    expect(server.monitor(fleet.monitorId)).toMatchObject({ shared: true, orgId: null });
    clock.advance(1);
    const expired = await post(profile, platform.token);
    expect(expired.status).toBe(401);
    expect(expired.text).toBe((await post(profile, 'upt_unknown')).text);
  });
});

describe('reclaim', () => {
  it('answers 404 for an id not in the token organisation', async () => {
    const other = server.admin.createOrganization('Other');
    const foreign = server.admin.enrollMonitor(other.id);
    server.admin.resetEnrollment(foreign.monitorId);
    expect((await post({ ...profile, id: 'zzzzzzzzzzzz' })).status).toBe(404);
    expect((await post({ ...profile, id: 'not-an-id' })).status).toBe(404);
    expect((await post({ ...profile, id: foreign.monitorId })).status).toBe(404);
  });

  it('keeps the fleet and organisations apart', async () => {
    const platform = server.admin.mintPlatformToken();
    const fleet = server.admin.enrollMonitor(null);
    const mine = server.admin.enrollMonitor(org.orgId);
    server.admin.resetEnrollment(fleet.monitorId);
    server.admin.resetEnrollment(mine.monitorId);
    expect((await post({ ...profile, id: fleet.monitorId })).status).toBe(404);
    expect((await post({ ...profile, id: mine.monitorId }, platform.token)).status).toBe(404);
    expect((await enroll(server, platform.token, fleet.monitorId)).monitorId).toBe(fleet.monitorId);
  });

  it('answers 409 while enrolled, and reclaims with a new key after a reset', async () => {
    const first = await enroll(server, org.token);
    const conflict = await post({ ...profile, id: first.monitorId });
    expect(conflict.status).toBe(409);
    server.admin.resetEnrollment(first.monitorId);
    expect(server.monitor(first.monitorId)?.enrolled).toBe(false);
    expect((await call(server.url, 'GET', '/api/ping', { auth: first.apiKey })).status).toBe(401);
    const again = await enroll(server, org.token, first.monitorId);
    expect(again.monitorId).toBe(first.monitorId);
    expect(again.apiKey).not.toBe(first.apiKey);
    expect((await call(server.url, 'GET', '/api/ping', { auth: again.apiKey })).status).toBe(200);
    expect((await call(server.url, 'GET', '/api/ping', { auth: first.apiKey })).status).toBe(401);
    expect((await post({ ...profile, id: first.monitorId })).status).toBe(409);
  });

  it('keeps assignments across a reclaim', async () => {
    const first = await enroll(server, org.token);
    const check = server.admin.createCheck({ name: 'c', url: 'http://127.0.0.1:1/', orgId: org.orgId });
    server.admin.assign(check.guid, first.monitorId);
    server.admin.resetEnrollment(first.monitorId);
    const again = await enroll(server, org.token, first.monitorId);
    const answer = await call(server.url, 'GET', '/api/checks', { auth: again.apiKey });
    expect((JSON.parse(answer.text) as { checks: { guid: string }[] }).checks.map((c) => c.guid)).toEqual([check.guid]);
  });
});

describe('monitor state', () => {
  const apiCalls = (apiKey: string) =>
    Promise.all([
      call(server.url, 'GET', '/api/ping', { auth: apiKey }),
      call(server.url, 'GET', '/api/checks', { auth: apiKey }),
      call(server.url, 'POST', '/api/results', { auth: apiKey, body: { results: [] } }),
      call(server.url, 'POST', '/api/status', {
        auth: apiKey,
        body: { version: '1', uptime_sec: 1, unsent_results: 0 },
      }),
    ]);

  it('invalidates the old key on resetKey', async () => {
    const { apiKey, monitorId } = await enroll(server, org.token);
    const fresh = server.admin.resetKey(monitorId);
    expect((await apiCalls(apiKey)).map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect((await apiCalls(fresh)).map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it('answers 403 on every API-key operation while disabled', async () => {
    const { apiKey, monitorId } = await enroll(server, org.token);
    server.admin.disableMonitor(monitorId);
    const answers = await apiCalls(apiKey);
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    expect(answers[0].text).toMatch(/disabled/);
    expect((await call(server.url, 'GET', '/api/ping', { auth: 'uak_nope' })).status).toBe(401);
    server.admin.enableMonitor(monitorId);
    expect((await apiCalls(apiKey)).map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it('updates last_seen_at on every authenticated call', async () => {
    const { apiKey, monitorId } = await enroll(server, org.token);
    expect(server.monitor(monitorId)?.lastSeenAt).toBeNull();
    clock.advance(5000);
    await call(server.url, 'GET', '/api/ping', { auth: apiKey });
    expect(server.monitor(monitorId)?.lastSeenAt).toBe(clock.now().toISOString());
    clock.advance(5000);
    await call(server.url, 'POST', '/api/status', { auth: apiKey, body: '{bad' });
    expect(server.monitor(monitorId)?.lastSeenAt).toBe(clock.now().toISOString());
  });
});
