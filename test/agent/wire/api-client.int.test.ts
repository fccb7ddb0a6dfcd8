import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src-main/agent/wire/api-client.ts';
import { leftBehind } from '../../support/left-behind.ts';
import { startForwardProxy, startSilentPort } from '../../targets/index.ts';
import { json, startScriptedServer, text, type Handler, type ScriptedServer } from '../../support/scripted-server.ts';
import { wireCheck } from '../../support/wire-fixtures.ts';

describe('API client against a scripted loopback server', () => {
  let server: ScriptedServer;
  beforeAll(async () => (server = await startScriptedServer()));
  afterAll(() => server.close());

  const client = (extra: { timeoutMs?: number; maxAnswerBytes?: number; connectTimeoutMs?: number } = {}) =>
    createApiClient({ baseUrl: `${server.url}/`, userAgent: 'test-agent/1', ...extra });

  it('sends the bearer key and parses a valid delta', async () => {
    const delta = { checks: [wireCheck({ guid: 'g1' })], server_time: '2026-11-21T10:00:00.000001Z' };
    server.handle(json(200, delta));
    const outcome = await client().checks('the-key', '2026-01-01T00:00:00Z');
    expect(outcome).toMatchObject({ ok: true, value: { server_time: delta.server_time } });
    const req = server.seen.at(-1);
    expect(req?.headers.authorization).toBe('Bearer the-key');
    expect(req?.headers['user-agent']).toBe('test-agent/1');
    expect(req?.url).toBe('/api/checks?since=2026-01-01T00%3A00%3A00Z');
  });

  const failures: {
    name: string;
    handler: Handler;
    kind: string;
    says: string;
    opts?: { timeoutMs?: number; maxAnswerBytes?: number };
  }[] = [
    { name: 'not JSON', handler: text(200, '<html>proxy login</html>'), kind: 'invalid-answer', says: 'not JSON' },
    {
      name: 'wrong schema',
      handler: json(200, { checks: 'nope' }),
      kind: 'invalid-answer',
      says: 'unexpected body (checks',
    },
    { name: '401', handler: text(401, 'unknown api key\n'), kind: 'auth', says: 'answered 401: unknown api key' },
    { name: '403', handler: text(403, 'monitor disabled'), kind: 'disabled', says: '403' },
    { name: '400', handler: text(400, 'invalid since'), kind: 'rejected', says: 'invalid since' },
    { name: '503', handler: text(503, 'maintenance'), kind: 'server', says: '503: maintenance' },
    {
      name: 'a redirect',
      handler: (_r, res) => res.writeHead(302, { location: '/x' }).end(),
      kind: 'invalid-answer',
      says: 'server URL',
    },
    {
      name: 'huge',
      handler: (_r, res) => res.end('x'.repeat(200_000)),
      kind: 'invalid-answer',
      says: 'larger than 1000 bytes',
      opts: { maxAnswerBytes: 1000 },
    },
    {
      name: 'slow',
      handler: (_r, res) => setTimeout(() => res.end('{}'), 1500),
      kind: 'timeout',
      says: 'no answer',
      opts: { timeoutMs: 100 },
    },
  ];
  it.each(failures)('classifies $name', async ({ name, handler, kind, says, opts }) => {
    server.handle(handler);
    // ping's answer schema is all-optional, so the schema case goes through checks.
    const outcome = name === 'wrong schema' ? await client(opts).checks('k', undefined) : await client(opts).ping('k');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.kind).toBe(kind);
      expect(outcome.error.message).toContain(says);
      expect(outcome.error.message).not.toContain('Bearer');
    }
  });

  it('classifies a refused connection as a network error naming the target', async () => {
    const gone = await startScriptedServer();
    const url = gone.url;
    await gone.close();
    const outcome = await createApiClient({ baseUrl: url, userAgent: 'x' }).ping('k');
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'network' } });
    if (!outcome.ok) expect(outcome.error.message).toBe(`could not reach GET ${url}/api/ping: connection refused`);
  });

  it('cancels when the caller aborts', async () => {
    server.handle((_r, res) => setTimeout(() => res.end('{}'), 1000));
    const controller = new AbortController();
    const pending = client().ping('k', controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });

  it('refuses to send a damaged key, and a damaged key never wedges the client for later calls', async () => {
    server.handle(json(200, {}));
    const c = client({ timeoutMs: 2_000 });
    const before = server.seen.length;
    // A key file read as UTF-8 garbage: on the old client the second round hung past its timeout.
    for (const key of ['bad\ufffd\ufffdkey', 'k\u20acy', 'line\nbreak']) {
      const outcomes = await Promise.all([
        c.ping(key),
        c.checks(key, undefined),
        c.results(key, '{"results":[]}'),
        c.status(key, { version: '1', uptime_sec: 1, unsent_results: 0 }),
      ]);
      for (const outcome of outcomes)
        expect(outcome).toMatchObject({
          ok: false,
          error: { kind: 'damaged-key', message: 'the stored key is damaged' },
        });
    }
    expect(server.seen.length).toBe(before);
    expect(await c.ping('good-key')).toMatchObject({ ok: true });
    await c.close();
  });

  it('measures how far the server clock is from ours (its Date header)', async () => {
    const local = Date.parse('2026-11-21T10:00:00Z');
    const c = createApiClient({ baseUrl: server.url, userAgent: 'x', now: () => local });
    expect(c.clockSkewSec()).toBeUndefined();
    server.handle((_r, res) => res.writeHead(200, { date: 'Sat, 21 Nov 2026 10:05:30 GMT' }).end('{}'));
    await c.ping('k');
    expect(c.clockSkewSec()).toBe(330);
    server.handle((_r, res) => res.writeHead(401, { date: 'Sat, 21 Nov 2026 09:59:59 GMT' }).end('no'));
    await c.ping('k');
    expect(c.clockSkewSec()).toBe(-1);
    await c.close();
  });

  it('reads a clock in step with the server as 0, whatever part of the second the answer comes in', async () => {
    // The Date header drops the milliseconds: a clock in step reads up to 999 ms past it. Those
    // must not come and go as a second of skew from one answer to the next (each change of
    // clock_skew_sec is a write of live-state.json, issue 26).
    server.handle((_r, res) => res.writeHead(200, { date: 'Sat, 21 Nov 2026 10:00:00 GMT' }).end('{}'));
    for (const ms of [0, 1, 300, 499, 500, 700, 999]) {
      const c = createApiClient({
        baseUrl: server.url,
        userAgent: 'x',
        now: () => Date.parse('2026-11-21T10:00:00Z') + ms,
      });
      await c.ping('k');
      expect([ms, c.clockSkewSec()]).toEqual([ms, 0]);
      await c.close();
    }
  });

  it('leaves nothing behind a call that would wake the agent later: no timer armed, no connection open', async () => {
    // An agent at rest makes a few calls a minute. Each used to leave its deadline armed for 30 s
    // (AbortSignal.timeout cannot be cleared), its connection idling for undici's keep-alive (a
    // timer that ticks every half second while it waits, then a close): 4-6 wake-ups for one call.
    const c = client();
    const calls = [
      { answer: {}, call: () => c.ping('k') },
      { answer: { accepted: 0 }, call: () => c.results('k', '{"results":[]}') },
      { answer: { checks: [], server_time: '2026-11-21T10:00:00.000001Z' }, call: () => c.checks('k', undefined) },
    ];
    for (const { answer, call } of calls) {
      server.handle(json(200, answer));
      expect(await leftBehind(async () => expect(await call()).toMatchObject({ ok: true }))).toEqual([]);
    }
    // A failed call too: the server's refusal, then the server gone.
    server.handle(text(503, 'maintenance'));
    expect(await leftBehind(() => c.ping('k'))).toEqual([]);
    await c.close();
  });

  it('through an office proxy too, a call leaves no timer armed and no connection open', async () => {
    // The tunnel's connects (to the proxy, then through it) and its CONNECT request had undici's
    // connect and header timeouts: its half-second timer, ticking after every call behind a proxy.
    const proxy = await startForwardProxy();
    try {
      const c = createApiClient({
        baseUrl: `${server.url}/`,
        userAgent: 'x',
        proxy: { url: new URL(proxy.url), source: 'the proxy setting' },
      });
      server.handle(json(200, {}));
      expect(await leftBehind(async () => expect(await c.ping('k')).toMatchObject({ ok: true }))).toEqual([]);
      expect(proxy.connects).toEqual([new URL(server.url).host]);
      server.handle(text(503, 'maintenance'));
      expect(await leftBehind(() => c.ping('k'))).toEqual([]);
      await c.close();
    } finally {
      await proxy.close();
    }
  });

  // The test's own budget is far below undici's 10 s, far above the 300 ms bound given here. The
  // bound is the client's own timer, cleared at the connect: undici's was a timer of its own kind
  // that kept ticking every half second until after the connect, a wake-up after every call of an
  // agent at rest (issue 26).
  it.each([
    { silent: 'a server', cause: 'timeout' },
    { silent: 'a proxy', cause: 'proxy' },
  ])(
    "$silent that never accepts is a connect timeout within the client's bound, and leaves nothing behind",
    { timeout: 5_000 },
    async ({ silent: which, cause }) => {
      const silent = await startSilentPort();
      const silentUrl = `http://127.0.0.1:${silent.port}`;
      try {
        const c = createApiClient({
          userAgent: 'x',
          connectTimeoutMs: 300,
          ...(which === 'a server'
            ? { baseUrl: silentUrl }
            : { baseUrl: `${server.url}/`, proxy: { url: new URL(silentUrl), source: 'the proxy setting' } }),
        });
        let outcome: Awaited<ReturnType<typeof c.ping>> | undefined;
        expect(await leftBehind(async () => (outcome = await c.ping('k')))).toEqual([]);
        expect(outcome).toMatchObject({ ok: false, error: { kind: 'network', cause } });
        if (outcome?.ok === false) expect(outcome.error.message).toContain('connection timed out');
        await c.close();
      } finally {
        await silent.close();
      }
    },
  );
});
