// The http probe against real loopback servers: statuses, bodies, requests sent, failures.
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import {
  closedPort,
  startHttpTarget,
  startTcpTarget,
  type HttpTarget,
  type RecordedRequest,
} from '../../targets/index.ts';
import { definition } from './definition.ts';

let target: HttpTarget;

beforeAll(async () => {
  target = await startHttpTarget({
    '/': { body: 'hello world' },
    '/created': { status: 201, body: 'made' },
    '/down': { status: 503, body: 'maintenance' },
    '/missing': { status: 404, body: 'nope' },
    '/slow': { delayMs: 300, body: 'late' },
    '/hang': { delayMs: 5000, body: 'too late' },
    '/slow-body': { bodyDelayMs: 1500, body: 'eventually' },
    '/endless': { endless: true },
    '/huge-headers': { hugeHeaderBytes: 100_000 },
    '/big-headers': { hugeHeaderBytes: 30_000, body: 'ok' },
    '/binary': { body: Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x00, 0x41, 0x42]) },
    '/unauthorized': { status: 401, body: 'who are you' },
  });
});
afterAll(async () => {
  await target.close();
});

const probe = (fields: Partial<CheckDefinition> & { path?: string }, sampleChars?: number) => {
  const { path = '/', ...rest } = fields;
  return runProbe(
    definition({ url: `${target.url}${path}`, ...rest }),
    sampleChars === undefined ? {} : { sampleChars },
  );
};
const lastRequest = (): RecordedRequest => {
  const last = target.requests.at(-1);
  if (last === undefined) throw new Error('no request recorded');
  return last;
};

describe('http probe verdicts', () => {
  it.each([
    { name: '200 passes', fields: { path: '/' }, success: true, status: 200, error: '' },
    {
      name: '503 fails the built-in rule',
      fields: { path: '/down' },
      success: false,
      status: 503,
      error: 'status 503, expected less than 400',
    },
    {
      name: 'eq 201 passes',
      fields: { path: '/created', status_code_op: 'eq', status_code_value: 201 },
      success: true,
      status: 201,
      error: '',
    },
    {
      name: 'eq 201 fails on 200',
      fields: { path: '/', status_code_op: 'eq', status_code_value: 201 },
      success: false,
      status: 200,
      error: 'status 200, expected 201',
    },
    {
      name: 'eq 404 replaces the built-in rule',
      fields: { path: '/missing', status_code_op: 'eq', status_code_value: 404 },
      success: true,
      status: 404,
      error: '',
    },
    {
      name: 'lt 500 passes a 404',
      fields: { path: '/missing', status_code_op: 'lt', status_code_value: 500 },
      success: true,
      status: 404,
      error: '',
    },
    {
      name: 'lt 400 fails a 503',
      fields: { path: '/down', status_code_op: 'lt', status_code_value: 400 },
      success: false,
      status: 503,
      error: 'status 503, expected less than 400',
    },
    {
      name: 'gt 300 fails a 200',
      fields: { path: '/', status_code_op: 'gt', status_code_value: 300 },
      success: false,
      status: 200,
      error: 'status 200, expected greater than 300',
    },
    { name: 'contains passes', fields: { match_string: 'world' }, success: true, status: 200, error: '' },
    {
      name: 'contains fails',
      fields: { match_string: 'foo' },
      success: false,
      status: 200,
      error: 'body does not contain "foo"',
    },
    {
      name: 'not_contains passes',
      fields: { match_string: 'foo', match_mode: 'not_contains' },
      success: true,
      status: 200,
      error: '',
    },
    {
      name: 'not_contains fails',
      fields: { match_string: 'hello', match_mode: 'not_contains' },
      success: false,
      status: 200,
      error: 'body contains "hello"',
    },
    {
      name: 'match is case-sensitive',
      fields: { match_string: 'Hello' },
      success: false,
      status: 200,
      error: 'body does not contain "Hello"',
    },
    {
      name: 'status rule reported before match',
      fields: { path: '/down', match_string: 'foo' },
      success: false,
      status: 503,
      error: 'status 503, expected less than 400',
    },
    {
      name: 'match on an error page with eq',
      fields: { path: '/down', status_code_op: 'eq', status_code_value: 503, match_string: 'maintenance' },
      success: true,
      status: 503,
      error: '',
    },
  ])('$name', async ({ fields, success, status, error }) => {
    const out = await probe(fields);
    expect(out).toMatchObject({ success, httpStatus: status, error });
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it.each([
    {
      name: 'unknown status_code_op',
      fields: { status_code_op: 'ge', status_code_value: 200 },
      error: 'unknown status_code_op "ge" (known: eq, lt, gt)',
    },
    {
      name: 'unknown match_mode',
      fields: { match_string: 'x', match_mode: 'regex' },
      error: 'unknown match_mode "regex" (known: contains, not_contains)',
    },
    {
      name: 'more than 10 headers',
      fields: { headers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x-${i}`, 'v'])) },
      error: 'check has 11 headers, at most 10 are allowed',
    },
  ])('fails closed without a request: $name', async ({ fields, error }) => {
    const before = target.connections();
    const out = await probe(fields);
    expect(out).toMatchObject({ success: false, error, latencyMs: 0, invalidDefinition: true });
    expect(target.connections()).toBe(before);
  });

  it('a 300 ms target reports latency of at least 300 ms', async () => {
    const out = await probe({ path: '/slow' });
    expect(out.success).toBe(true);
    expect(out.latencyMs).toBeGreaterThanOrEqual(300);
  });

  it('max_response_time_ms fails a slow response', async () => {
    const out = await probe({ path: '/slow', max_response_time_ms: 100 });
    expect(out.success).toBe(false);
    expect(out.error).toMatch(/^response took \d+ ms, limit 100 ms$/);
    expect(out.httpStatus).toBe(200);
  });

  it('reports phase timings', async () => {
    const out = await probe({});
    expect(out.timings?.connectMs).toBeGreaterThanOrEqual(0);
    expect(out.timings?.firstByteMs).toBeGreaterThanOrEqual(0);
    expect(out.timings?.dnsMs).toBeUndefined(); // an IP literal needs no lookup
    expect(out.timings?.totalMs).toBeGreaterThanOrEqual(0);
  });
});

describe('http probe request', () => {
  it('sends GET with a User-Agent and no body', async () => {
    await probe({ path: '/echo' });
    expect(lastRequest()).toMatchObject({ method: 'GET', body: '' });
    expect(lastRequest().headers['user-agent']).toBe('uptime-agent');
  });

  it('names the target and its port in Host and closes the connection; a Host header of the check wins', async () => {
    await probe({ path: '/echo' });
    expect(lastRequest().headers.host).toBe(`127.0.0.1:${target.port}`);
    expect(lastRequest().headers.connection).toBe('close');
    await probe({ path: '/echo', headers: { Host: 'intranet.example' } });
    expect(lastRequest().headers.host).toBe('intranet.example');
  });

  it('sends POST with post_data and a form Content-Type', async () => {
    await probe({ path: '/echo', post_data: 'a=1&b=2' });
    expect(lastRequest()).toMatchObject({ method: 'POST', body: 'a=1&b=2' });
    expect(lastRequest().headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('keeps a user Content-Type and sends user headers', async () => {
    await probe({
      path: '/echo',
      post_data: '{"a":1}',
      headers: { 'Content-Type': 'application/json', 'X-Test': 'v1' },
    });
    expect(lastRequest().headers['content-type']).toBe('application/json');
    expect(lastRequest().headers['x-test']).toBe('v1');
  });

  it('sends URL userinfo as a Basic header, decoded, and not in the URL', async () => {
    const out = await runProbe(definition({ url: `http://bob:p%40ss@127.0.0.1:${target.port}/echo` }));
    expect(out.success).toBe(true);
    expect(lastRequest().headers.authorization).toBe(`Basic ${Buffer.from('bob:p@ss').toString('base64')}`);
    expect(lastRequest().path).toBe('/echo');
  });

  it('never puts the password into an error or sample', async () => {
    const out = await runProbe(
      definition({ url: `http://bob:s3cret@127.0.0.1:${target.port}/unauthorized`, match_string: 'x' }),
    );
    expect(out.error).toBe('status 401, expected less than 400');
    expect(JSON.stringify(out)).not.toContain('s3cret');
    const bad = await runProbe(definition({ url: 'http://bob:s3cret@exa mple.test/' }));
    expect(bad.error).toBe('invalid URL "http://bob:***@exa mple.test/"');
  });

  it('never goes through the global undici dispatcher (where the API client lives)', async () => {
    const original = getGlobalDispatcher();
    const leaky = new Agent().compose(
      (dispatch) => (opts, handler) =>
        dispatch({ ...opts, headers: { ...(opts.headers as Record<string, string>), 'x-leak': 'api-key' } }, handler),
    );
    setGlobalDispatcher(leaky);
    try {
      await probe({ path: '/echo' });
      expect(lastRequest().headers['x-leak']).toBeUndefined();
    } finally {
      setGlobalDispatcher(original);
      await leaky.close();
    }
  });

  it('a header that frames the request is refused before anything is sent', async () => {
    const before = target.requests.length;
    const out = await probe({ path: '/echo', headers: { 'Transfer-Encoding': 'chunked' } });
    expect(out).toMatchObject({
      success: false,
      invalidDefinition: true,
      error: 'header Transfer-Encoding cannot be set: the agent frames each request itself',
    });
    expect(target.requests.length).toBe(before);
  });

  it('uses a fresh connection for every run', async () => {
    const before = target.connections();
    for (let i = 0; i < 3; i++) expect((await probe({})).success).toBe(true);
    expect(target.connections() - before).toBe(3);
    expect(lastRequest().headers.connection).toBe('close');
  });
});

describe('http probe bodies', () => {
  it('keeps the leading body as sample, capped to sampleChars', async () => {
    expect((await probe({}, 5)).responseSample).toBe('hello');
    expect((await probe({}, 0)).responseSample).toBe('');
  });

  it('replaces invalid UTF-8 and shows NUL as an escape in the sample, still matches', async () => {
    const out = await probe({ path: '/binary', match_string: 'AB' });
    expect(out).toMatchObject({ success: true, responseSample: 'hi\uFFFD\uFFFD\\x00AB' });
  });

  it('an endless body without match_string stops after the sample', async () => {
    const out = await probe({ path: '/endless' }, 100);
    expect(out).toMatchObject({ success: true, httpStatus: 200, responseSample: 'x'.repeat(100) });
    expect(target.endlessBytes()).toBeLessThan(16 * 1024 * 1024);
  });

  it('an endless body is examined up to 4 MiB for a missing match, then the run ends', async () => {
    const sentBefore = target.endlessBytes();
    const out = await probe({ path: '/endless', match_string: 'needle' }, 10);
    expect(out).toMatchObject({
      success: false,
      httpStatus: 200,
      error: 'first 4 MiB of the body does not contain "needle"',
    });
    expect(out.responseSample).toBe('x'.repeat(10));
    // The target can only write what the probe reads plus socket buffers: reading was bounded.
    expect(target.endlessBytes() - sentBefore).toBeLessThan(16 * 1024 * 1024);
  });

  it('a found match in an endless body stops reading at once', async () => {
    const out = await probe({ path: '/endless', match_string: 'xxx', match_mode: 'not_contains' });
    expect(out).toMatchObject({ success: false, error: 'body contains "xxx"' });
  });

  it('headers above the limit fail with a clear message', async () => {
    const out = await probe({ path: '/huge-headers' });
    expect(out).toMatchObject({ success: false, httpStatus: 0, error: 'response headers too large (over 64 KiB)' });
    expect(out.latencyMs).toBeGreaterThanOrEqual(1); // the target did answer
  });

  it('headers larger than Node default but under the limit pass', async () => {
    expect(await probe({ path: '/big-headers' })).toMatchObject({ success: true, responseSample: 'ok' });
  });
});

describe('http probe failures', () => {
  it.each([
    {
      name: 'headers later than timeout_sec',
      fields: { path: '/hang', timeout_sec: 1 },
      status: 0,
      error: 'timed out after 1 s',
      answered: false,
    },
    {
      name: 'body later than timeout_sec while matching',
      fields: { path: '/slow-body', timeout_sec: 1, match_string: 'eventually' },
      status: 200,
      error: 'timed out after 1 s while reading the body',
      answered: true,
    },
  ])('$name', async ({ fields, status, error, answered }) => {
    const out = await probe(fields);
    expect(out).toMatchObject({ success: false, httpStatus: status, error });
    if (answered) expect(out.latencyMs).toBeGreaterThanOrEqual(1);
    else expect(out.latencyMs).toBe(0);
  });

  it('a slow body does not fail a check that matches nothing', async () => {
    const out = await probe({ path: '/slow-body', timeout_sec: 1 });
    expect(out).toMatchObject({ success: true, httpStatus: 200, error: '' });
  });

  it('connection refused on a closed port', async () => {
    const out = await runProbe(definition({ url: `http://127.0.0.1:${await closedPort()}/` }));
    expect(out).toMatchObject({ success: false, httpStatus: 0, latencyMs: 0, error: 'connection refused' });
  });

  it('DNS failure names the host', async () => {
    const out = await runProbe(definition({ url: 'http://nosuch.invalid/' }));
    expect(out).toMatchObject({ success: false, latencyMs: 0, error: 'DNS lookup failed for nosuch.invalid' });
  });

  it('a silent peer times out with latency 0', async () => {
    const silent = await startTcpTarget();
    try {
      const out = await runProbe(definition({ url: `http://127.0.0.1:${silent.port}/`, timeout_sec: 1 }));
      expect(out).toMatchObject({ success: false, latencyMs: 0, error: 'timed out after 1 s' });
    } finally {
      await silent.close();
    }
  });

  it('a peer that hangs up at once', async () => {
    const rude = await startTcpTarget({ hangUp: true });
    try {
      const out = await runProbe(definition({ url: `http://127.0.0.1:${rude.port}/` }));
      expect(out).toMatchObject({
        success: false,
        latencyMs: 0,
        error: 'connection closed by the target before a complete response',
      });
    } finally {
      await rude.close();
    }
  });

  it('a non-HTTP answer is an invalid response, and an answer', async () => {
    const ssh = await startTcpTarget({ banner: 'SSH-2.0-OpenSSH_9.6\r\n' });
    try {
      const out = await runProbe(definition({ url: `http://127.0.0.1:${ssh.port}/` }));
      expect(out.success).toBe(false);
      expect(out.error).toMatch(/^invalid HTTP response \(.+\)$/);
      expect(out.latencyMs).toBeGreaterThanOrEqual(1);
    } finally {
      await ssh.close();
    }
  });

  it('cancellation by ctx.signal is reported as cancelled, also when inverted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const out = await runProbe(definition({ url: `${target.url}/hang`, invert_result: true }), {
      signal: controller.signal,
    });
    expect(out).toMatchObject({ success: false, cancelled: true, error: 'cancelled: the agent is stopping' });
  });
});
