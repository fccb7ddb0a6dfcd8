// runProbe: scheme dispatch, definitions that cannot run, and invert_result applied last.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectiveTimeoutSec, runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import {
  closedPort,
  startHttpTarget,
  startTcpTarget,
  type HttpTarget,
  type SocketTarget,
} from '../../targets/index.ts';
import { leftBehind } from '../../support/left-behind.ts';
import { definition } from './definition.ts';

let http: HttpTarget;
let tcp: SocketTarget;
beforeAll(async () => {
  http = await startHttpTarget({ '/': { body: 'up' }, '/down': { status: 503 }, '/hang': { delayMs: 5000 } });
  tcp = await startTcpTarget({ banner: 'hello\r\n' });
});
afterAll(async () => {
  await http.close();
  await tcp.close();
});

describe('runProbe dispatch', () => {
  it.each([
    { name: 'http', url: () => `${http.url}/`, status: 200 },
    { name: 'tcp', url: () => tcp.url, status: 0 },
  ])('$name', async ({ url, status }) => {
    expect(await runProbe(definition({ url: url() }))).toMatchObject({ success: true, httpStatus: status });
  });

  it.each([
    { name: 'http', url: () => `${http.url}/` },
    { name: 'http, failing', url: () => `${http.url}/down` },
    { name: 'tcp', url: () => tcp.url },
    { name: 'tcp, banner read', url: () => tcp.url, match: 'hello' },
  ])('$name: a finished run leaves no timer armed and no connection open', async ({ url, match }) => {
    // Each would wake an agent at rest once more after its run (issue 26).
    const def = definition({ url: url(), ...(match === undefined ? {} : { match_string: match }) });
    expect(await leftBehind(() => runProbe(def))).toEqual([]);
  });

  it.each([
    { name: 'empty URL (private check without definition)', url: '', error: 'check has no URL' },
    { name: 'unparsable URL', url: 'not a url', error: 'invalid URL "not a url"' },
    {
      name: 'unparsable URL with password',
      url: 'http://u:s3cret@bad host/',
      error: 'invalid URL "http://u:***@bad host/"',
    },
    {
      name: 'unsupported scheme',
      url: 'ftp://example.test/',
      error: 'unsupported scheme ftp: (use http, https, tcp or tls)',
    },
    {
      name: 'unsupported scheme udp',
      url: 'udp://example.test:53',
      error: 'unsupported scheme udp: (use http, https, tcp or tls)',
    },
  ])('fails closed: $name', async ({ url, error }) => {
    const out = await runProbe(definition({ url }));
    expect(out).toEqual({
      success: false,
      httpStatus: 0,
      latencyMs: 0,
      answered: false,
      decidedBy: 'definition',
      error,
      responseSample: '',
      invalidDefinition: true,
    });
  });
});

describe('invert_result', () => {
  const inverted = (fields: Partial<CheckDefinition> & { url: string }) =>
    runProbe(definition({ ...fields, invert_result: true }));

  it.each([
    {
      name: 'a passing target fails',
      url: () => `${http.url}/`,
      success: false,
      error: 'inverted: target answered successfully',
    },
    { name: 'a failing status passes with empty error', url: () => `${http.url}/down`, success: true, error: '' },
    {
      name: 'a refused connection passes',
      url: async () => `http://127.0.0.1:${await closedPort()}/`,
      success: true,
      error: '',
    },
    {
      name: 'a tcp connect fails',
      url: () => tcp.url,
      success: false,
      error: 'inverted: target answered successfully',
    },
  ])('$name', async ({ url, success, error }) => {
    const out = await inverted({ url: await url() });
    expect(out).toMatchObject({ success, error });
  });

  it('inverts after every rule, including the match', async () => {
    expect(await inverted({ url: `${http.url}/`, match_string: 'missing' })).toMatchObject({
      success: true,
      error: '',
      responseSample: 'up',
    });
  });

  it('keeps latency and status of what was observed', async () => {
    const out = await inverted({ url: `${http.url}/down` });
    expect(out.httpStatus).toBe(503);
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it.each([
    { name: 'unknown status_code_op', fields: { status_code_op: 'between', status_code_value: 1 } },
    { name: 'unknown match_mode', fields: { match_string: 'x', match_mode: 'regex' } },
  ])('never turns a broken definition into a pass: $name', async ({ fields }) => {
    const out = await inverted({ url: `${http.url}/down`, ...fields });
    expect(out).toMatchObject({ success: false, invalidDefinition: true });
  });

  it('never turns a bad URL into a pass', async () => {
    expect(await inverted({ url: 'gopher://x/' })).toMatchObject({ success: false, invalidDefinition: true });
  });

  it('an inverted timeout passes (the target did not answer in time)', async () => {
    expect(await inverted({ url: `${http.url}/hang`, timeout_sec: 1 })).toMatchObject({
      success: true,
      error: '',
      latencyMs: 0,
    });
  });
});

describe('timeout_sec', () => {
  it.each([
    { name: 'absent is 10 s', sec: undefined, expected: 10 },
    { name: '0 is 10 s', sec: 0, expected: 10 },
    { name: 'negative is 10 s', sec: -5, expected: 10 },
    { name: '30 stays 30', sec: 30, expected: 30 },
    { name: 'above 60 is capped', sec: 600, expected: 60 },
  ])('$name', ({ sec, expected }) => {
    expect(effectiveTimeoutSec(sec)).toBe(expected);
  });
});
