// Each check's last run, kept once for its row and its run explanation (read/last-runs.ts). Pure:
// outcomes and entries built by hand.
import { describe, expect, it } from 'vitest';
import { createLastRuns } from '../../../src-main/agent/read/last-runs.ts';
import type { ProbeOutcome } from '../../../src-main/agent/probes/types.ts';
import { privateEarlierError, privateMask, shownError } from '../../../src-main/agent/results/privacy.ts';
import type { HistoryEntry } from '../../../src-main/agent/store/history.ts';
import { passedRun } from '../../support/probe-outcomes.ts';

const at = (s: number): number => Date.UTC(2026, 10, 28, 12, 0, s);
const iso = (s: number): string => new Date(at(s)).toISOString();

const outcome = (over: Partial<ProbeOutcome> = {}): ProbeOutcome =>
  passedRun({
    latencyMs: 12,
    responseSample: 'hello',
    sampleKind: 'body',
    timings: { connectMs: 1.25, firstByteMs: 3.5, totalMs: 12.75 },
    ...over,
  });

const stored = (over: Partial<HistoryEntry> = {}): HistoryEntry => ({
  check_guid: 'a',
  ran_at: iso(0),
  success: false,
  skipped: false,
  http_status: 503,
  latency_ms: 7,
  error: 'body does not contain "needle-from-before"',
  ...over,
});

describe('last runs', () => {
  it('the row and the explanation show one run: the same time, verdict, figures and error', () => {
    const runs = createLastRuns();
    runs.ran('a', outcome(), at(1), false, '', undefined);
    const failed = outcome({
      success: false,
      httpStatus: 500,
      latencyMs: 30,
      decidedBy: 'status',
      error: 'status 500',
    });
    runs.ran('a', failed, at(2), false, 'status 500', undefined);
    expect(runs.row('a', false)).toEqual({
      check_guid: 'a',
      ran_at: iso(2),
      success: false,
      skipped: false,
      http_status: 500,
      latency_ms: 30,
      error: 'status 500',
    });
    expect(runs.explained('a')).toEqual({
      ranAt: iso(2),
      success: false,
      httpStatus: 500,
      latencyMs: 30,
      error: 'status 500',
      timings: { connectMs: 1.25, firstByteMs: 3.5, totalMs: 12.75 },
      decidedBy: 'status',
      test: false,
      sample: 'hello',
      sampleKind: 'body',
    });
  });

  it('a run without timings, sample or certificate explains none, whatever the run before it had', () => {
    const runs = createLastRuns();
    const cert = { subject: 'CN=a', issuer: 'CN=b', validTo: '2027-01-01T00:00:00Z', daysLeft: 34 };
    runs.ran(
      'a',
      outcome({ certificate: cert, timings: { dnsMs: 0.5, tlsMs: 2, totalMs: 9 } }),
      at(1),
      false,
      '',
      undefined,
    );
    expect(runs.explained('a')).toMatchObject({ certificate: cert, timings: { dnsMs: 0.5, tlsMs: 2, totalMs: 9 } });
    const {
      timings: _t,
      sampleKind: _k,
      ...bare
    } = outcome({ success: false, decidedBy: 'definition', error: 'bad url' });
    runs.ran('a', { ...bare, responseSample: '' }, at(2), false, 'bad url', undefined);
    const explained = runs.explained('a');
    expect(explained).toEqual({
      ranAt: iso(2),
      success: false,
      httpStatus: 200,
      latencyMs: 12,
      error: 'bad url',
      decidedBy: 'definition',
      test: false,
    });
  });

  it('an equal certificate from the next run leaves the kept one in place; a changed one replaces it', () => {
    const runs = createLastRuns();
    const cert = { subject: 'CN=a', issuer: 'CN=b', validTo: '2027-01-01T00:00:00Z', daysLeft: 34 };
    runs.ran('a', outcome({ certificate: cert }), at(1), false, '', undefined);
    runs.ran('a', outcome({ certificate: { ...cert } }), at(2), false, '', undefined);
    // The same object: the copy the second run brought was not kept.
    expect(runs.explained('a')?.certificate).toBe(cert);
    const nextDay = { ...cert, daysLeft: 33 };
    runs.ran('a', outcome({ certificate: nextDay }), at(3), false, '', undefined);
    expect(runs.explained('a')?.certificate).toBe(nextDay);
    runs.ran('a', outcome(), at(4), false, '', undefined);
    expect(runs.explained('a')?.certificate).toBeUndefined();
  });

  it('a skipped run shows on the row; the explanation keeps the run before it', () => {
    const runs = createLastRuns();
    runs.ran('a', outcome(), at(1), false, '', undefined);
    runs.ran(
      'a',
      outcome({ success: false, answered: false, latencyMs: 0, error: 'timed out' }),
      at(2),
      true,
      'timed out',
      undefined,
    );
    expect(runs.row('a', false)).toMatchObject({ ran_at: iso(2), skipped: true, success: false, error: 'timed out' });
    expect(runs.explained('a')).toMatchObject({ ranAt: iso(1), success: true });
    // Only skips so far: a row, nothing to explain.
    runs.ran('b', outcome({ success: false, error: 'timed out' }), at(3), true, 'timed out', undefined);
    expect(runs.row('b', false)).toMatchObject({ skipped: true });
    expect(runs.explained('b')).toBeUndefined();
    // The next run that is not skipped is the row again.
    runs.ran('a', outcome(), at(4), false, '', undefined);
    expect(runs.row('a', false)).toMatchObject({ ran_at: iso(4), skipped: false, success: true, error: '' });
  });

  it('a private check’s sample is masked or withheld when the run is kept', () => {
    const runs = createLastRuns();
    const secrets = ['secret-path-4242'];
    runs.ran('p', outcome({ responseSample: 'you asked for /secret-path-4242' }), at(1), false, '', secrets);
    expect(runs.explained('p')?.sample).toBe(`you asked for /${privateMask}`);
    runs.ran('q', outcome({ responseSample: 'echo OK' }), at(1), false, '', ['OK']);
    expect(runs.explained('q')).toMatchObject({ sampleWithheld: true });
    expect(runs.explained('q')?.sample).toBeUndefined();
    const error = shownError('body does not contain "secret-path-4242"', secrets);
    runs.ran(
      'p',
      outcome({ success: false, error: 'body does not contain "secret-path-4242"' }),
      at(2),
      false,
      error,
      secrets,
    );
    expect(runs.row('p', true)?.error).toBe(error);
    expect(runs.row('p', true)?.error).not.toContain('secret-path-4242');
  });

  it('the store’s last entry from before this start: on the row, not explained; a private check’s reason withheld', () => {
    const runs = createLastRuns();
    runs.seed([stored(), stored({ check_guid: 'p' }), stored({ check_guid: 's', skipped: true, ran_at: iso(5) })]);
    expect(runs.row('a', false)).toEqual(stored());
    expect(runs.explained('a')).toBeUndefined();
    expect(runs.row('p', true)).toEqual({ ...stored({ check_guid: 'p' }), error: privateEarlierError });
    expect(runs.row('s', true)).toMatchObject({ skipped: true, ran_at: iso(5), error: privateEarlierError });
    expect(runs.explained('s')).toBeUndefined();
    // A passing run has nothing to withhold.
    runs.seed([stored({ check_guid: 'ok', success: true, http_status: 200, error: '' })]);
    expect(runs.row('ok', true)?.error).toBe('');
    // This process's own run replaces it, masked as it was kept.
    runs.ran('p', outcome(), at(9), false, '', ['x-secret']);
    expect(runs.row('p', true)).toMatchObject({ ran_at: iso(9), success: true, error: '' });
    expect(runs.explained('p')).toMatchObject({ ranAt: iso(9) });
  });

  it('a forgotten check has no last run', () => {
    const runs = createLastRuns();
    runs.ran('a', outcome(), at(1), false, '', undefined);
    runs.forget('a');
    expect(runs.row('a', false)).toBeUndefined();
    expect(runs.explained('a')).toBeUndefined();
  });
});
