import { describe, expect, it } from 'vitest';
import { buildResult } from '../../../src-main/agent/results/result-builder.ts';
import { privateSecrets, redactPrivate } from '../../../src-main/agent/results/private-redaction.ts';
import type { ProbeOutcome } from '../../../src-main/agent/probes/types.ts';

const outcome = (o: Partial<ProbeOutcome>): ProbeOutcome => ({
  success: false,
  httpStatus: 0,
  latencyMs: 0,
  error: '',
  responseSample: '',
  ...o,
});

const base = { guid: 'g', monitorId: 'm', ranAt: new Date('2026-11-21T10:00:00.123Z'), sampleIsTargetInfo: false };

describe('buildResult', () => {
  it('caps error and sample to result_detail_max_chars code points', () => {
    const r = buildResult({ ...base, maxChars: 3, outcome: outcome({ error: '😀😀😀😀', responseSample: 'abcdef' }) });
    expect(r.error).toBe('😀😀😀');
    expect(r.response_sample).toBe('abc');
  });

  it('sends no detail when the cap is 0', () => {
    const r = buildResult({ ...base, maxChars: 0, outcome: outcome({ error: 'connection refused', responseSample: 'x' }) });
    expect(r).not.toHaveProperty('error');
    expect(r).not.toHaveProperty('response_sample');
    expect(r.ran_at).toBe('2026-11-21T10:00:00.123Z');
  });

  it('masks every piece of a private definition in the error', () => {
    const def = {
      url: 'https://admin:hunter2@intranet.corp.example:8443/secret/path?token=abc123',
      match_string: 'Welcome Bob',
      headers: { 'X-Api-Key': 'k-998877' },
      post_data: 'user=bob',
    };
    const secrets = privateSecrets(def);
    const errors = [
      'DNS lookup failed for intranet.corp.example',
      'body does not contain "Welcome Bob"',
      'redirect loop at https://intranet.corp.example:8443/secret/path?token=abc123',
      'redirect to unsupported scheme ftp://files.corp.example/x',
      'status 401 with header k-998877 and hunter2',
      'path /secret/path refused',
    ];
    for (const error of errors) {
      const r = buildResult({ ...base, maxChars: 500, privateSecrets: secrets, outcome: outcome({ error }) });
      for (const secret of ['intranet', 'Welcome Bob', 'k-998877', 'hunter2', '/secret/path', 'abc123', 'files.corp']) {
        expect(r.error ?? '').not.toContain(secret);
      }
    }
  });

  it('withholds a private tls check sample (it names the target) but keeps a body sample, masked', () => {
    const secrets = privateSecrets({ url: 'https://intranet.corp.example/', match_string: '' });
    const tls = buildResult({ ...base, maxChars: 100, privateSecrets: secrets, sampleIsTargetInfo: true, outcome: outcome({ responseSample: 'subject CN=intranet.corp.example' }) });
    expect(tls).not.toHaveProperty('response_sample');
    const body = buildResult({ ...base, maxChars: 100, privateSecrets: secrets, outcome: outcome({ responseSample: 'hello from intranet.corp.example' }) });
    expect(body.response_sample).toBe('hello from [private]');
  });

  it('redactPrivate masks any URL even when it is not part of the definition', () => {
    expect(redactPrivate('moved to http://10.1.2.3/login now', [])).toBe('moved to [private] now');
  });
});
