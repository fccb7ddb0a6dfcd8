// Redirects through the probe's own loop, against real loopback servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import { closedPort, startHttpTarget, type HttpTarget } from '../../targets/index.ts';
import { definition } from './definition.ts';

let a: HttpTarget;
let b: HttpTarget;
let deadPort: number;

beforeAll(async () => {
  b = await startHttpTarget({ '/': { body: 'on b' } });
  deadPort = await closedPort();
  a = await startHttpTarget({
    '/': { body: 'home' },
    '/moved': { status: 301, redirect: '/' },
    '/found': { redirect: '/' },
    '/to-echo': { redirect: '/echo' },
    '/see-other': { status: 303, redirect: '/echo' },
    '/temporary': { status: 307, redirect: '/echo' },
    '/to-b': { redirect: `${b.url}/` },
    '/to-b-echo': { redirect: `${b.url}/echo` },
    '/to-dead': { redirect: `http://127.0.0.1:${deadPort}/` },
    '/loop-1': { redirect: '/loop-2' },
    '/loop-2': { redirect: '/loop-1' },
    '/self': { redirect: '/self' },
    '/ftp': { redirect: 'ftp://files.example.test/x' },
    '/no-location': { status: 302 },
    // Node's parser keeps the first of several Location headers; two targets are no redirect.
    '/two-locations': (_req, res) => {
      res
        .writeHead(302, [
          ['Location', '/'],
          ['Location', '/echo'],
        ])
        .end();
    },
    '/slow-1': { delayMs: 150, redirect: '/slow-2' },
    '/slow-2': { delayMs: 150, body: 'done' },
    '/to-down': { redirect: '/down' },
    '/down': { status: 503, body: 'down' },
    '/chain': (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '0');
      res.writeHead(302, { location: `/chain?n=${n + 1}` }).end();
    },
  });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const probe = (path: string, fields: Partial<CheckDefinition> = {}) =>
  runProbe(definition({ url: `${a.url}${path}`, ...fields }));

describe('redirects', () => {
  it.each([
    { name: '301 followed', path: '/moved', status: 200, sample: 'home' },
    { name: '302 followed', path: '/found', status: 200, sample: 'home' },
    { name: 'cross-origin followed', path: '/to-b', status: 200, sample: 'on b' },
    { name: '3xx without Location is final', path: '/no-location', status: 302, sample: '' },
    { name: '3xx with two Location headers is final', path: '/two-locations', status: 302, sample: '' },
  ])('$name', async ({ path, status, sample }) => {
    expect(await probe(path)).toMatchObject({ success: true, httpStatus: status, responseSample: sample });
  });

  it('the final response is evaluated', async () => {
    expect(await probe('/to-down')).toMatchObject({
      success: false,
      httpStatus: 503,
      error: 'status 503, expected less than 400',
    });
  });

  it('disable_redirects evaluates the first response', async () => {
    expect(await probe('/found', { disable_redirects: true })).toMatchObject({ success: true, httpStatus: 302 });
    expect(
      await probe('/found', { disable_redirects: true, status_code_op: 'eq', status_code_value: 200 }),
    ).toMatchObject({
      success: false,
      error: 'status 302, expected 200',
    });
  });

  it('every hop uses a fresh connection', async () => {
    const before = a.connections();
    await probe('/moved');
    expect(a.connections() - before).toBe(2);
  });

  it('latency runs to the final headers', async () => {
    const out = await probe('/slow-1');
    expect(out).toMatchObject({ success: true, responseSample: 'done' });
    expect(out.latencyMs).toBeGreaterThanOrEqual(300);
  });

  it.each([
    { name: 'two-step loop', path: '/loop-1', error: (u: string) => `redirect loop at ${u}/loop-1` },
    { name: 'self loop', path: '/self', error: (u: string) => `redirect loop at ${u}/self` },
    { name: 'unsupported scheme', path: '/ftp', error: () => 'redirect to unsupported scheme ftp:' },
    { name: 'too many hops', path: '/chain?n=0', error: () => 'too many redirects (more than 10)' },
  ])('fails: $name', async ({ path, error }) => {
    const out = await probe(path);
    expect(out).toMatchObject({ success: false, httpStatus: 302, error: error(a.url) });
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it('a loop error never shows the password', async () => {
    const out = await runProbe(definition({ url: `http://bob:s3cret@127.0.0.1:${a.port}/loop-1` }));
    expect(out.error).toBe(`redirect loop at ${a.url}/loop-1`);
  });

  it('a redirect to a dead port fails, but something came back', async () => {
    const out = await probe('/to-dead');
    expect(out).toMatchObject({ success: false, httpStatus: 0, error: 'connection refused' });
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });
});

describe('redirected requests', () => {
  const last = (t: HttpTarget) => t.requests.at(-1);

  it('303 after POST becomes GET without body', async () => {
    await probe('/see-other', { post_data: 'a=1' });
    expect(last(a)).toMatchObject({ method: 'GET', path: '/echo', body: '' });
    expect(last(a)?.headers['content-type']).toBeUndefined();
  });

  it('307 repeats the POST with its body', async () => {
    await probe('/temporary', { post_data: 'a=1' });
    expect(last(a)).toMatchObject({ method: 'POST', path: '/echo', body: 'a=1' });
  });

  it('same-origin redirect keeps credentials and headers', async () => {
    await runProbe(
      definition({
        url: `http://bob:pw@127.0.0.1:${a.port}/to-echo`,
        headers: { 'X-Api-Key': 'k', Accept: 'text/plain' },
      }),
    );
    const headers = last(a)?.headers ?? {};
    expect(headers.authorization).toBe(`Basic ${btoa('bob:pw')}`);
    expect(headers['x-api-key']).toBe('k');
    expect(headers.accept).toBe('text/plain');
  });

  it('cross-origin redirect drops Authorization and credential headers, keeps the rest', async () => {
    await runProbe(
      definition({
        url: `http://bob:pw@127.0.0.1:${a.port}/to-b-echo`,
        headers: { Cookie: 'sid=1', 'X-Api-Key': 'k', 'X-Auth-Token': 't', Accept: 'text/plain' },
      }),
    );
    const headers = last(b)?.headers ?? {};
    expect(headers.authorization).toBeUndefined();
    expect(headers.cookie).toBeUndefined();
    expect(headers['x-api-key']).toBeUndefined();
    expect(headers['x-auth-token']).toBeUndefined();
    expect(headers.accept).toBe('text/plain');
  });
});
