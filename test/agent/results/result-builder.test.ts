import { describe, expect, it } from 'vitest';
import { buildResult } from '../../../src-main/agent/results/result-builder.ts';
import { privateSecrets } from '../../../src-main/agent/results/privacy.ts';
import type { ProbeOutcome } from '../../../src-main/agent/probes/types.ts';
import { failedRun } from '../../support/probe-outcomes.ts';

/** A failed run that got an answer, with no status, time or words unless the test gives them. */
const outcome = (o: Partial<ProbeOutcome>): ProbeOutcome =>
  failedRun({ httpStatus: 0, latencyMs: 0, decidedBy: 'connection', error: '', ...o });

const base = { guid: 'g', monitorId: 'm', ranAt: new Date('2026-11-21T10:00:00.123Z') };

describe('buildResult', () => {
  it('caps error and sample to result_detail_max_chars code points', () => {
    const r = buildResult({ ...base, maxChars: 3, outcome: outcome({ error: '😀😀😀😀', responseSample: 'abcdef' }) });
    expect(r.error).toBe('😀😀😀');
    expect(r.response_sample).toBe('abc');
  });

  it('sends no detail when the cap is 0', () => {
    const r = buildResult({
      ...base,
      maxChars: 0,
      outcome: outcome({ error: 'connection refused', responseSample: 'x' }),
    });
    expect(r).not.toHaveProperty('error');
    expect(r).not.toHaveProperty('response_sample');
    expect(r.ran_at).toBe('2026-11-21T10:00:00.123Z');
  });

  it('sends no content of a private check: no sample, an error made of the failure kind', () => {
    const secrets = privateSecrets({ url: 'https://intranet.corp.example/', match_string: '' });
    const r = buildResult({
      ...base,
      maxChars: 100,
      privateSecrets: secrets,
      outcome: outcome({
        error: 'DNS lookup failed for intranet.corp.example',
        responseSample: 'hello from intranet.corp.example',
        sampleKind: 'body',
      }),
    });
    expect(r.error).toBe('the connection to the target failed');
    expect(r).not.toHaveProperty('response_sample');
  });
});
