import { describe, expect, it } from 'vitest';
import {
  privateSecrets,
  privateWithheldError,
  redactPrivate,
  sentDetail,
  shownError,
} from '../../../src-main/agent/results/privacy.ts';
import type { SampleKind } from '../../../src-main/agent/probes/types.ts';

describe('privacy of private-definition checks', () => {
  const def = {
    url: 'https://admin:hunter2@intranet.corp.example:8443/secret/path?token=abc123',
    match_string: 'Welcome Bob',
    headers: { 'X-Api-Key': 'k-998877' },
    post_data: 'user=bob',
  };
  const secrets = privateSecrets(def);

  it.each([
    'DNS lookup failed for intranet.corp.example',
    'body does not contain "Welcome Bob"',
    'redirect loop at https://intranet.corp.example:8443/secret/path?token=abc123',
    'redirect to unsupported scheme ftp://files.corp.example/x',
    'status 401 with header k-998877 and hunter2',
    'path /secret/path refused',
  ])('masks every piece of the definition out of the error %s', (error) => {
    const sent = sentDetail({ error, responseSample: '', sampleKind: 'body' }, secrets).error;
    for (const secret of ['intranet', 'Welcome Bob', 'k-998877', 'hunter2', '/secret/path', 'abc123', 'files.corp'])
      expect(sent).not.toContain(secret);
  });

  const samples: { name: string; kind: SampleKind | undefined; sent: string }[] = [
    { name: 'a tcp banner describes the target: withheld', kind: 'banner', sent: '' },
    { name: 'a tls certificate summary describes the target: withheld', kind: 'certificate', sent: '' },
    { name: 'a sample of unknown kind: withheld (fail closed)', kind: undefined, sent: '' },
    { name: 'a body: sent, masked', kind: 'body', sent: 'hello from [private]' },
  ];
  it.each(samples)('$name', ({ kind, sent }) => {
    const outcome = {
      error: '',
      responseSample: 'hello from intranet.corp.example',
      ...(kind === undefined ? {} : { sampleKind: kind }),
    };
    expect(sentDetail(outcome, secrets).sample).toBe(sent);
  });

  it('sends everything of a normal check, whatever its sample kind', () => {
    expect(
      sentDetail({ error: 'e http://x.test/', responseSample: 'SSH-2.0', sampleKind: 'banner' }, undefined),
    ).toEqual({ error: 'e http://x.test/', sample: 'SSH-2.0' });
  });

  it('withholds an error that still holds a value too short to mask (match_string "OK")', () => {
    const short = privateSecrets({ url: 'tcp://10.0.0.7:25', match_string: 'OK' });
    expect(sentDetail({ error: 'banner does not contain "OK"', responseSample: '' }, short).error).toBe(
      privateWithheldError,
    );
    expect(sentDetail({ error: 'connection refused', responseSample: '' }, short).error).toBe('connection refused');
    expect(sentDetail({ error: '', responseSample: 'OK ready', sampleKind: 'body' }, short).sample).toBe('');
  });

  it('masks any URL even when it is not part of the definition', () => {
    expect(redactPrivate('moved to http://10.1.2.3/login now', [])).toBe('moved to [private] now');
  });

  it('shows the UI (notifications) what is sent, never the raw private error', () => {
    expect(shownError('body does not contain "Welcome Bob"', secrets)).toBe('body does not contain "[private]"');
    expect(shownError('body does not contain "Welcome Bob"', undefined)).toBe('body does not contain "Welcome Bob"');
  });
});
