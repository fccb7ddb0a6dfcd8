// POST /api/results, POST /api/status and GET /api/ping, over real HTTP on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from './reference-server/index.ts';
import { call, enroll, ok, result, withOrg, type Enrolled } from './reference-server/testing.ts';

let server: ReferenceServer;
let org: { orgId: string; token: string };
let monitor: Enrolled;
let guid: string;

beforeEach(async () => {
  server = await startReferenceServer();
  org = withOrg(server);
  monitor = await enroll(server, org.token);
  guid = server.admin.createCheck({
    name: 'c',
    url: 'http://127.0.0.1:1/',
    orgId: org.orgId,
    result_detail_max_chars: 5,
  }).guid;
  server.admin.assign(guid, monitor.monitorId);
});
afterEach(() => server.close());

const upload = (body: unknown, apiKey = monitor.apiKey) =>
  call(server.url, 'POST', '/api/results', { auth: apiKey, body });
const at = (i: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + i * 1000).toISOString();
const batch = (n: number) => Array.from({ length: n }, (_, i) => result(guid, at(i)));

describe('results', () => {
  it('stores results stamped with the caller, whatever monitor_id says', async () => {
    expect(
      ok(await upload({ results: [result(guid, at(0), { success: false, http_status: 503, error: 'boom' })] })),
    ).toEqual({ accepted: 1 });
    expect(server.results(monitor.monitorId)).toMatchObject([
      {
        monitorId: monitor.monitorId,
        checkGuid: guid,
        ranAt: at(0),
        success: false,
        httpStatus: 503,
        error: 'boom',
        orgId: org.orgId,
      },
    ]);
    expect(server.results(monitor.monitorId)[0]).not.toHaveProperty('responseSample');
  });

  it('takes 500 results and rejects 501 outright', async () => {
    expect(ok(await upload({ results: batch(500) }))).toEqual({ accepted: 500 });
    const tooMany = await upload({ results: batch(501).map((r) => ({ ...r, ran_at: '2027-01-01T00:00:00Z' })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toMatch(/500/);
    expect(server.results()).toHaveLength(500);
  });

  it('is idempotent: a retried batch is not stored twice and reports the same accepted', async () => {
    const body = { results: batch(3) };
    expect(ok(await upload(body))).toEqual({ accepted: 3 });
    expect(ok(await upload(body))).toEqual({ accepted: 3 });
    // The same instant written differently is the same result.
    expect(ok(await upload({ results: [result(guid, '2026-11-21T11:00:00.000+01:00')] }))).toEqual({ accepted: 1 });
    expect(server.results()).toHaveLength(3);
  });

  it('drops results for unassigned and unknown checks silently, storing the rest', async () => {
    const other = server.admin.createCheck({ name: 'other', url: 'http://127.0.0.1:2/', orgId: org.orgId });
    const gone = server.admin.createCheck({ name: 'gone', url: 'http://127.0.0.1:3/', orgId: org.orgId });
    server.admin.assign(gone.guid, monitor.monitorId);
    server.admin.unassign(gone.guid, monitor.monitorId);
    const answer = await upload({
      results: [
        result(guid, at(0)),
        result(other.guid, at(0)),
        result(gone.guid, at(0)),
        result('no-such-check', at(0)),
      ],
    });
    expect(ok(answer)).toEqual({ accepted: 1 });
    expect(server.results().map((r) => r.checkGuid)).toEqual([guid]);
  });

  it('lets a shared monitor report checks of several organisations in one batch', async () => {
    const fleet = await enroll(server, server.admin.mintPlatformToken().token);
    const second = server.admin.createOrganization('Second');
    const theirs = server.admin.createCheck({ name: 't', url: 'http://127.0.0.1:4/', orgId: second.id });
    server.admin.assign(guid, fleet.monitorId);
    server.admin.assign(theirs.guid, fleet.monitorId);
    expect(ok(await upload({ results: [result(guid, at(0)), result(theirs.guid, at(0))] }, fleet.apiKey))).toEqual({
      accepted: 2,
    });
    expect(server.results(fleet.monitorId).map((r) => r.orgId)).toEqual([org.orgId, second.id]);
  });

  it('caps error and response_sample to result_detail_max_chars code points', async () => {
    const zero = server.admin.createCheck({
      name: 'z',
      url: 'http://127.0.0.1:5/',
      orgId: org.orgId,
      result_detail_max_chars: 0,
    });
    server.admin.assign(zero.guid, monitor.monitorId);
    await upload({
      results: [
        result(guid, at(0), { error: '😀😀😀😀😀😀😀', response_sample: 'abcdefgh' }),
        result(guid, at(1), { error: 'abc', response_sample: null }),
        result(zero.guid, at(0), { error: 'anything', response_sample: 'anything' }),
      ],
    });
    const [capped, short, empty] = server.results();
    expect(capped).toMatchObject({ error: '😀😀😀😀😀', responseSample: 'abcde' });
    expect(short).toMatchObject({ error: 'abc' });
    expect(short).not.toHaveProperty('responseSample');
    expect(empty).toMatchObject({ error: '', responseSample: '' });
  });

  const invalid: [string, string | Record<string, unknown>, RegExp][] = [
    ['malformed JSON', '{"results": [', /malformed JSON/],
    ['no results field', { results: undefined }, /^results: missing/],
    ['results not an array', { results: 'x' }, /^results: /],
    [
      'a missing check_guid',
      { results: [{ ...result('g', at(0)), check_guid: undefined }] },
      /^results\[0\]\.check_guid: missing/,
    ],
    [
      'a missing monitor_id',
      { results: [result('g', at(0)), { ...result('g', at(1)), monitor_id: undefined }] },
      /^results\[1\]\.monitor_id: missing/,
    ],
    ['a bad ran_at', { results: [result('g', 'yesterday')] }, /^results\[0\]\.ran_at: not an RFC 3339/],
    ['a string success', { results: [result('g', at(0), { success: 'yes' })] }, /^results\[0\]\.success/],
    ['a fractional latency', { results: [result('g', at(0), { latency_ms: 1.5 })] }, /^results\[0\]\.latency_ms/],
    ['a negative latency', { results: [result('g', at(0), { latency_ms: -1 })] }, /latency_ms: must be >= 0/],
    ['a missing http_status', { results: [{ ...result('g', at(0)), http_status: undefined }] }, /http_status: missing/],
    ['a numeric error', { results: [result('g', at(0), { error: 5 })] }, /error: must be a string/],
  ];
  it.each(invalid)('answers 400 for %s, storing nothing', async (_name, body, reason) => {
    const answer = await upload(typeof body === 'string' ? body : { results: [result(guid, at(9))], ...body });
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(reason);
    expect(server.results()).toEqual([]);
  });

  it('answers 413 for a body over 1 MiB, declared or streamed', async () => {
    const big = JSON.stringify({ results: [result(guid, at(0), { error: 'x'.repeat(1024 * 1024) })] });
    const declared = await upload(big);
    expect(declared.status).toBe(413);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Chunked, no Content-Length: the server must count and stop on its own.
        if (sent >= 4 * 1024 * 1024) controller.close();
        else {
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
          sent += 64 * 1024;
        }
      },
    });
    const streamed = await fetch(`${server.url}/api/results`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { authorization: `Bearer ${monitor.apiKey}` },
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.text()).toMatch(/too large/);
    // Exactly 1 MiB is still fine.
    const padded = JSON.stringify({ results: [] });
    expect((await upload(padded + ' '.repeat(1024 * 1024 - padded.length))).status).toBe(200);
    expect(server.results()).toEqual([]);
  });

  it('checks the credential before the size', async () => {
    expect((await upload('x'.repeat(2 * 1024 * 1024), 'uak_unknown')).status).toBe(401);
  });
});

describe('status and ping', () => {
  const report = (body: unknown) => call(server.url, 'POST', '/api/status', { auth: monitor.apiKey, body });
  const valid = { version: '0.1.0', uptime_sec: 60, unsent_results: 0 };

  it('stores every report and the latest', async () => {
    expect(ok(await report(valid))).toEqual({ status: 'ok' });
    const full = {
      ...valid,
      uptime_sec: 120,
      last_outage_sec: 30,
      last_outage_ended_at: '2026-11-21T10:00:00Z',
      extra: 1,
    };
    expect(ok(await report(full))).toEqual({ status: 'ok' });
    expect(server.statuses(monitor.monitorId).map((s) => s.status.uptime_sec)).toEqual([60, 120]);
    expect(server.latestStatus(monitor.monitorId)?.status).toEqual({
      version: '0.1.0',
      uptime_sec: 120,
      unsent_results: 0,
      last_outage_sec: 30,
      last_outage_ended_at: '2026-11-21T10:00:00Z',
    });
    expect(server.statuses(monitor.monitorId)[0]?.status).not.toHaveProperty('last_outage_sec');
  });

  const bad: [string, unknown, RegExp][] = [
    ['malformed JSON', '{', /malformed JSON/],
    ['negative uptime_sec', { ...valid, uptime_sec: -1 }, /^uptime_sec: must be >= 0/],
    ['negative unsent_results', { ...valid, unsent_results: -5 }, /^unsent_results: must be >= 0/],
    ['negative last_outage_sec', { ...valid, last_outage_sec: -2 }, /^last_outage_sec: must be >= 0/],
    ['missing version', { ...valid, version: undefined }, /^version: missing/],
    ['a bad last_outage_ended_at', { ...valid, last_outage_ended_at: 'then' }, /last_outage_ended_at/],
    ['an oversized body', { ...valid, padding: 'x'.repeat(65 * 1024) }, /too large/],
  ];
  it.each(bad)('answers 400 for %s', async (_name, body, reason) => {
    const answer = await report(body);
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(reason);
    expect(server.statuses()).toEqual([]);
  });

  it('answers ping with {"status":"ok"}', async () => {
    const answer = await call(server.url, 'GET', '/api/ping', { auth: monitor.apiKey });
    expect(ok(answer)).toEqual({ status: 'ok' });
    expect(answer.headers.get('content-type')).toBe('application/json');
  });

  it('answers 404 for unknown paths and 405 for wrong methods', async () => {
    expect((await call(server.url, 'GET', '/api/nope', { auth: monitor.apiKey })).status).toBe(404);
    expect((await call(server.url, 'GET', '/api/ping/', { auth: monitor.apiKey })).status).toBe(404);
    const wrong = await call(server.url, 'GET', '/api/results', { auth: monitor.apiKey });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect((await call(server.url, 'DELETE', '/api/enroll')).status).toBe(405);
  });
});
