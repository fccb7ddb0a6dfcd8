import { describe, expect, it } from 'vitest';
import type { CertificateInfo, ProbeOutcome } from '../../../src-main/agent/probes/types.ts';
import {
  certExpiryVerdict,
  firstFailure,
  invertOutcome,
  invertedSuccessError,
  matchRuleProblem,
  matchSettled,
  matchVerdict,
  passed,
  responseTimeVerdict,
  statusRuleProblem,
  statusVerdict,
} from '../../../src-main/agent/probes/verdict.ts';
import { passedRun } from '../../support/probe-outcomes.ts';

describe('statusVerdict', () => {
  it.each([
    { name: 'built-in rule passes 200', status: 200, op: undefined, value: undefined, reason: '' },
    { name: 'built-in rule passes 399', status: 399, op: undefined, value: undefined, reason: '' },
    {
      name: 'built-in rule fails 400',
      status: 400,
      op: undefined,
      value: undefined,
      reason: 'status 400, expected less than 400',
    },
    {
      name: 'built-in rule fails 503',
      status: 503,
      op: undefined,
      value: undefined,
      reason: 'status 503, expected less than 400',
    },
    {
      name: 'empty op is the built-in rule',
      status: 503,
      op: '',
      value: 200,
      reason: 'status 503, expected less than 400',
    },
    { name: 'eq passes', status: 201, op: 'eq', value: 201, reason: '' },
    { name: 'eq fails', status: 200, op: 'eq', value: 201, reason: 'status 200, expected 201' },
    { name: 'eq replaces the built-in rule', status: 503, op: 'eq', value: 503, reason: '' },
    { name: 'lt passes', status: 499, op: 'lt', value: 500, reason: '' },
    { name: 'lt fails at the bound', status: 500, op: 'lt', value: 500, reason: 'status 500, expected less than 500' },
    { name: 'gt passes', status: 301, op: 'gt', value: 300, reason: '' },
    {
      name: 'gt fails at the bound',
      status: 300,
      op: 'gt',
      value: 300,
      reason: 'status 300, expected greater than 300',
    },
    {
      name: 'unknown op fails closed',
      status: 200,
      op: 'ge',
      value: 200,
      reason: 'unknown status_code_op "ge" (known: eq, lt, gt)',
    },
    {
      name: 'op without value fails closed',
      status: 200,
      op: 'eq',
      value: undefined,
      reason: 'status_code_op "eq" needs a status_code_value',
    },
  ])('$name', ({ status, op, value, reason }) => {
    expect(statusVerdict(status, op, value)).toMatchObject({ pass: reason === '', reason });
    expect(statusRuleProblem(op, value)).toBe(reason.startsWith('status ') ? '' : reason);
  });
});

describe('matchVerdict', () => {
  it.each([
    { name: 'empty match string asserts nothing', match: '', mode: 'not_contains', found: false, reason: '' },
    { name: 'absent mode means contains (found)', match: 'foo', mode: undefined, found: true, reason: '' },
    {
      name: 'absent mode means contains (missing)',
      match: 'foo',
      mode: undefined,
      found: false,
      reason: 'body does not contain "foo"',
    },
    { name: 'empty mode means contains', match: 'foo', mode: '', found: false, reason: 'body does not contain "foo"' },
    { name: 'contains found', match: 'foo', mode: 'contains', found: true, reason: '' },
    { name: 'not_contains missing', match: 'foo', mode: 'not_contains', found: false, reason: '' },
    { name: 'not_contains found', match: 'foo', mode: 'not_contains', found: true, reason: 'body contains "foo"' },
    {
      name: 'quotes are escaped',
      match: 'say "hi"',
      mode: 'contains',
      found: false,
      reason: 'body does not contain "say \\"hi\\""',
    },
    {
      name: 'unknown mode fails closed',
      match: 'foo',
      mode: 'regex',
      found: true,
      reason: 'unknown match_mode "regex" (known: contains, not_contains)',
    },
  ])('$name', ({ match, mode, found, reason }) => {
    expect(matchVerdict('body', match, mode, found)).toMatchObject({ pass: reason === '', reason });
  });

  it('names the unknown mode as a definition problem', () => {
    expect(matchRuleProblem('regex')).toContain('"regex"');
    expect(matchRuleProblem(undefined)).toBe('');
    expect(matchRuleProblem('not_contains')).toBe('');
  });

  it.each([
    { name: 'nothing to match', match: '', mode: undefined, found: false, settled: true },
    { name: 'found decides contains', match: 'a', mode: 'contains', found: true, settled: true },
    { name: 'found decides not_contains', match: 'a', mode: 'not_contains', found: true, settled: true },
    { name: 'missing needs the whole body', match: 'a', mode: 'contains', found: false, settled: false },
    { name: 'unknown mode fails anyway', match: 'a', mode: 'x', found: false, settled: true },
  ])('matchSettled: $name', ({ match, mode, found, settled }) => {
    expect(matchSettled(match, mode, found)).toBe(settled);
  });
});

describe('responseTimeVerdict', () => {
  it.each([
    { name: 'no limit', latency: 9999, max: undefined, reason: '' },
    { name: 'zero limit is no limit', latency: 9999, max: 0, reason: '' },
    { name: 'under the limit', latency: 499, max: 500, reason: '' },
    { name: 'at the limit', latency: 500, max: 500, reason: '' },
    { name: 'over the limit', latency: 812, max: 500, reason: 'response took 812 ms, limit 500 ms' },
  ])('$name', ({ latency, max, reason }) => {
    expect(responseTimeVerdict(latency, max)).toMatchObject({ pass: reason === '', reason });
  });
});

describe('certExpiryVerdict', () => {
  const cert = (daysLeft: number): CertificateInfo => ({
    subject: 'CN=example.test',
    issuer: 'CN=Test CA',
    validTo: '2026-11-24T12:00:00Z',
    daysLeft,
  });
  it.each([
    { name: 'no rule', days: 3, warn: undefined, reason: '' },
    { name: 'zero turns the rule off', days: 0, warn: 0, reason: '' },
    { name: 'more days left than the warning', days: 8, warn: 7, reason: '' },
    {
      name: 'exactly the warning days',
      days: 7,
      warn: 7,
      reason: 'TLS certificate expires in 7 days (2026-11-24), warning at 7',
    },
    { name: 'fewer days', days: 3, warn: 7, reason: 'TLS certificate expires in 3 days (2026-11-24), warning at 7' },
    { name: 'one day', days: 1, warn: 7, reason: 'TLS certificate expires in 1 day (2026-11-24), warning at 7' },
    { name: 'today', days: 0, warn: 7, reason: 'TLS certificate expires today (2026-11-24), warning at 7' },
    { name: 'already expired', days: -2, warn: 7, reason: 'TLS certificate expired on 2026-11-24, warning at 7' },
  ])('$name', ({ days, warn, reason }) => {
    expect(certExpiryVerdict(cert(days), warn)).toMatchObject({ pass: reason === '', reason });
  });

  it('passes when there is no certificate (plain http)', () => {
    expect(certExpiryVerdict(undefined, 7)).toEqual(passed);
  });
});

describe('firstFailure', () => {
  it('keeps the order of the rules', () => {
    const a = { pass: false, reason: 'a', rule: 'status' } as const;
    const b = { pass: false, reason: 'b', rule: 'match' } as const;
    expect(firstFailure(passed, a, b)).toBe(a);
    expect(firstFailure(passed, passed)).toBe(passed);
  });
});

describe('invertOutcome', () => {
  const base: ProbeOutcome = passedRun({ responseSample: 'ok' });
  it.each([
    { name: 'success becomes a failure that says why', input: base, success: false, error: invertedSuccessError },
    {
      name: 'failure becomes a success with empty error',
      input: { ...base, success: false, error: 'status 503, expected less than 400' },
      success: true,
      error: '',
    },
    {
      name: 'invalid definition is never flipped',
      input: { ...base, success: false, error: 'unknown match_mode "x"', invalidDefinition: true },
      success: false,
      error: 'unknown match_mode "x"',
    },
    {
      name: 'cancelled run is never flipped',
      input: { ...base, success: false, error: 'cancelled', cancelled: true },
      success: false,
      error: 'cancelled',
    },
  ])('$name', ({ input, success, error }) => {
    const out = invertOutcome(input);
    expect(out.success).toBe(success);
    expect(out.error).toBe(error);
    expect(out.latencyMs).toBe(input.latencyMs);
    expect(out.responseSample).toBe(input.responseSample);
  });
});
