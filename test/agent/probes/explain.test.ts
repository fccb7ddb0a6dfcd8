// explain(): the verdict, the rule that decided it, timings and certificate in plain words
// (issue 13 §3 and §6), from hand-made outcomes (a real https run is in explain.int.test.ts).
import { describe, expect, it } from 'vitest';
import { explain, type ProbeOutcome } from '../../../src-main/agent/probes/index.ts';
import { definition } from './definition.ts';
import { passedRun } from '../../support/probe-outcomes.ts';

const cert = { subject: 'CN=shop.test', issuer: 'CN=Office CA', validTo: '2027-01-10T00:00:00Z', daysLeft: 9 };
const base: ProbeOutcome = passedRun({
  latencyMs: 12,
  responseSample: 'Welcome home\nsecond line',
  timings: { dnsMs: 3, connectMs: 1, tlsMs: 5, firstByteMs: 2, totalMs: 14 },
  certificate: cert,
});

describe('explain', () => {
  it('a pass lists every rule it satisfied, the timings and the certificate', () => {
    const def = definition({
      url: 'https://user:pw@shop.test/',
      match_string: 'Welcome',
      max_response_time_ms: 500,
      cert_expiry_warn_days: 7,
    });
    expect(explain(base, def)).toEqual([
      'PASS  https://user:***@shop.test/',
      'verdict: pass — every rule passed (status below 400; contains "Welcome"; response within 500 ms; certificate valid for more than 7 days)',
      'status: 200',
      'latency: 12 ms',
      'timings: DNS 3 ms · connect 1 ms · TLS 5 ms · first byte 2 ms · total 14 ms',
      'certificate: CN=shop.test; issuer CN=Office CA; expires in 9 days (2027-01-10T00:00:00Z)',
      'sample: Welcome home',
    ]);
  });

  it.each([
    {
      decidedBy: 'status',
      error: 'status 503, expected less than 400',
      line: 'verdict: fail — decided by the status rule: status 503, expected less than 400',
    },
    {
      decidedBy: 'match',
      error: 'body does not contain "Welcome"',
      line: 'verdict: fail — decided by the match rule: body does not contain "Welcome"',
    },
    {
      decidedBy: 'response-time',
      error: 'response took 900 ms, limit 500 ms',
      line: 'verdict: fail — decided by the response time limit: response took 900 ms, limit 500 ms',
    },
    {
      decidedBy: 'certificate',
      error: 'TLS certificate expires in 3 days (2027-01-04), warning at 7',
      line: 'verdict: fail — decided by the certificate: TLS certificate expires in 3 days (2027-01-04), warning at 7',
    },
    {
      decidedBy: 'inverted',
      error: 'inverted: target answered successfully',
      line: 'verdict: fail — decided by the inverted result: inverted: target answered successfully',
    },
    {
      decidedBy: 'timeout',
      error: 'timed out after 10 s',
      line: 'verdict: fail — decided by the timeout: timed out after 10 s',
    },
    {
      decidedBy: 'egress-policy',
      error: 'blocked by egress policy: 10.0.0.5 is a private address',
      line: 'verdict: fail — decided by the egress policy: blocked by egress policy: 10.0.0.5 is a private address',
    },
  ] as const)('a failure names its rule: $decidedBy', ({ decidedBy, error, line }) => {
    const out = explain({ ...base, success: false, decidedBy, error }, definition({ url: 'https://shop.test/' }));
    expect(out[0]).toBe('FAIL  https://shop.test/');
    expect(out[1]).toBe(line);
  });

  it('an inverted pass says the failure was expected', () => {
    const out = explain(
      { ...base, decidedBy: 'inverted', certificate: undefined },
      definition({ url: 'https://shop.test/', invert_result: true }),
    );
    expect(out[1]).toBe('verdict: pass — decided by the inverted result: the target failed, which this check expects');
  });

  it('nothing back: latency says so, expired certificates count days ago, the proxy is named', () => {
    const out = explain(
      {
        ...base,
        success: false,
        httpStatus: 0,
        latencyMs: 0,
        decidedBy: 'connection',
        error: 'connection refused',
        responseSample: '',
        timings: { totalMs: 2 },
        certificate: { ...cert, daysLeft: -2 },
        viaProxy: 'http://office:***@proxy.test:3128',
      },
      definition({ url: 'tcp://db.test:5432' }),
    );
    expect(out).toEqual([
      'FAIL  tcp://db.test:5432',
      'verdict: fail — decided by the connection: connection refused',
      'latency: nothing came back',
      'timings: total 2 ms',
      'certificate: CN=shop.test; issuer CN=Office CA; expired 2 days ago (2027-01-10T00:00:00Z)',
      'through the proxy http://office:***@proxy.test:3128',
    ]);
  });
});
