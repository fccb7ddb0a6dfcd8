// Fault injection, request recording and stop/restart on the same port, over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from './reference-server/index.ts';
import {
  call,
  enroll,
  manualClock,
  ok,
  result,
  withOrg,
  type Enrolled,
  type ManualClock,
} from './reference-server/testing.ts';

let server: ReferenceServer;
let clock: ManualClock;
let monitor: Enrolled;

beforeEach(async () => {
  clock = manualClock();
  server = await startReferenceServer({ now: clock.now });
  monitor = await enroll(server, withOrg(server).token);
});
afterEach(() => server.close());

const ping = () => call(server.url, 'GET', '/api/ping', { auth: monitor.apiKey });
const checks = () => call(server.url, 'GET', '/api/checks', { auth: monitor.apiKey });

describe('faults', () => {
  it('answers a status for the next N calls of one endpoint', async () => {
    const fault = server.faults.respond(503, { endpoint: 'ping', times: 2 });
    const first = await ping();
    expect(first.status).toBe(503);
    expect(first.text).toMatch(/503/);
    expect((await checks()).status).toBe(200); // other endpoints untouched
    expect((await ping()).status).toBe(503);
    expect(fault.hits).toBe(2);
    expect(fault.active).toBe(false);
    expect((await ping()).status).toBe(200);
  });

  it('applies to every endpoint for a window of the server clock', async () => {
    server.faults.respond(500, { forMs: 10_000, body: 'maintenance\n' });
    expect((await ping()).text).toBe('maintenance\n');
    expect((await checks()).status).toBe(500);
    clock.advance(10_000);
    expect((await ping()).status).toBe(200);
    expect(server.faults.active()).toEqual([]);
  });

  it('sends invalid JSON, schema violations and huge bodies with status 200', async () => {
    server.faults.invalidJson({ times: 1 });
    const invalid = await checks();
    expect(invalid.status).toBe(200);
    expect(() => JSON.parse(invalid.text) as unknown).toThrow();
    server.faults.schemaViolation({ times: 1 });
    expect(JSON.parse((await checks()).text)).toMatchObject({ checks: 'not-an-array', accepted: 'many' });
    server.faults.hugeBody({ times: 1, bytes: 3 * 1024 * 1024 });
    const huge = await checks();
    expect(huge.text.length).toBe(3 * 1024 * 1024);
    expect(JSON.parse(huge.text)).toHaveProperty('padding');
  });

  it('delays, hangs and resets', async () => {
    server.faults.delay(150, { endpoint: 'ping', times: 1 });
    const started = performance.now();
    expect((await ping()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    server.faults.hang({ endpoint: 'ping', times: 1 });
    await expect(
      fetch(`${server.url}/api/ping`, {
        headers: { authorization: `Bearer ${monitor.apiKey}` },
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow();

    server.faults.reset({ endpoint: 'ping', times: 1 });
    await expect(ping()).rejects.toThrow();
    expect((await ping()).status).toBe(200);
    await expect.poll(() => server.requests({ endpoint: 'ping' }).map((r) => r.status)).toEqual([200, null, null, 200]);
  });

  it('can run the real operation first and lose its answer', async () => {
    const guid = server.admin.createCheck({ name: 'c', url: 'http://127.0.0.1:1/' }).guid;
    server.admin.assign(guid, monitor.monitorId);
    server.faults.respond(502, { endpoint: 'results', times: 1, afterHandling: true });
    const body = { results: [result(guid, '2026-11-21T10:00:00Z')] };
    expect((await call(server.url, 'POST', '/api/results', { auth: monitor.apiKey, body })).status).toBe(502);
    expect(server.results()).toHaveLength(1);
    expect(ok(await call(server.url, 'POST', '/api/results', { auth: monitor.apiKey, body }))).toEqual({ accepted: 1 });
    expect(server.results()).toHaveLength(1);
  });

  it('can be cancelled and cleared', async () => {
    const fault = server.faults.respond(500, {});
    fault.cancel();
    expect((await ping()).status).toBe(200);
    server.faults.respond(500, {});
    server.faults.clear();
    expect((await ping()).status).toBe(200);
  });
});

describe('request recording', () => {
  it('records method, path, query, headers, body, status and fault', async () => {
    server.clearRequests();
    server.faults.respond(418, { endpoint: 'status', times: 1 });
    await call(server.url, 'POST', '/api/status', {
      auth: monitor.apiKey,
      body: { version: 'v', uptime_sec: 1, unsent_results: 0 },
    });
    await call(server.url, 'GET', '/api/checks?since=2026-11-21T10:29:50.000000Z', { auth: monitor.apiKey });
    await call(server.url, 'GET', '/nowhere');
    const [status, sync, nowhere] = server.requests();
    expect(status).toMatchObject({
      method: 'POST',
      path: '/api/status',
      endpoint: 'status',
      status: 418,
      fault: 'status 418',
      bodyComplete: true,
      body: '{"version":"v","uptime_sec":1,"unsent_results":0}',
      at: clock.now().toISOString(),
    });
    expect(status?.headers.authorization).toBe(`Bearer ${monitor.apiKey}`);
    expect(sync).toMatchObject({ query: 'since=2026-11-21T10:29:50.000000Z', status: 200, fault: null });
    expect(nowhere).toMatchObject({ path: '/nowhere', endpoint: null, status: 404 });
    expect(server.requests({ endpoint: 'checks' })).toHaveLength(1);
    // A secret scan covers everything the client sent.
    const everything = JSON.stringify(server.requests());
    expect(everything).not.toContain('hunter2');
  });

  it('is bounded', async () => {
    const small = await startReferenceServer({ recorderLimits: { maxRequests: 3 } });
    try {
      for (let i = 0; i < 5; i++) await call(small.url, 'GET', `/x${i}`);
      expect(small.requests().map((r) => r.path)).toEqual(['/x2', '/x3', '/x4']);
      expect(small.requests().map((r) => r.seq)).toEqual([3, 4, 5]);
    } finally {
      await small.close();
    }
  });
});

describe('stop and restart', () => {
  it('drops every connection, then serves again on the same port with the same state', async () => {
    const { port, url } = server;
    const hang = server.faults.hang({ endpoint: 'checks', times: 1 });
    const hanging = checks();
    await expect.poll(() => hang.hits).toBe(1); // the request is inside the server
    await server.stop();
    expect(server.running).toBe(false);
    await expect(hanging).rejects.toThrow();
    await expect(ping()).rejects.toThrow(); // connection refused: an outage
    expect(server.requests({ endpoint: 'checks' }).map((r) => r.status)).toEqual([null]);
    await server.start();
    expect(server.port).toBe(port);
    expect(server.url).toBe(url);
    expect((await ping()).status).toBe(200);
    await server.restart();
    expect(server.port).toBe(port);
    expect((await ping()).status).toBe(200);
  });
});
