import { describe, expect, it } from 'vitest';
import {
  privateSecrets,
  privateWithheldError,
  redactPrivate,
  sentDetail,
  shownError,
} from '../../../src-main/agent/results/privacy.ts';

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
    'status 401 with header k-998877 and hunter2',
  ])('sends only the failure kind, never the text of the error %s', (error) => {
    const sent = sentDetail({ error, responseSample: 'x', decidedBy: 'status', httpStatus: 401 }, secrets);
    expect(sent).toEqual({ error: 'the target answered HTTP 401, a status the check does not accept', sample: '' });
  });

  it.each(['body', 'banner', 'certificate', undefined] as const)('sends no %s sample of a private check', () => {
    const sent = sentDetail({ error: '', responseSample: 'hello', decidedBy: 'all-rules', httpStatus: 200 }, secrets);
    expect(sent).toEqual({ error: '', sample: '' });
  });

  it('sends everything of a normal check', () => {
    const sent = sentDetail(
      { error: 'e http://x.test/', responseSample: 'SSH-2.0', decidedBy: 'match', httpStatus: 0 },
      undefined,
    );
    expect(sent).toEqual({ error: 'e http://x.test/', sample: 'SSH-2.0' });
  });

  const b64 = (text: string): string => Buffer.from(text).toString('base64');
  it.each([
    ['upper case', 'PATH /SECRET/PATH?TOKEN=ABC123 HOST INTRANET.CORP.EXAMPLE'],
    ['URL-encoded', 'path %2Fsecret%2Fpath token%3Dabc123 Welcome%20Bob Welcome+Bob'],
    ['URL-encoded, upper-case hex', 'path %2fsecret%2fpath'],
    ['basic auth, base64', `authorization: Basic ${b64('admin:hunter2')}`],
    ['a value in a base64 dump, any alignment', b64('GET /x HTTP/1.1\r\nX-Api-Key: k-998877\r\n')],
    ['a value in a base64 dump, other alignment', b64('xGET X-Api-Key: k-998877!')],
    ['a value in a base64 dump, third alignment', b64('xyGET X-Api-Key: k-998877!!')],
  ])('masks every local value in its %s form', (_name, text) => {
    const shown = redactPrivate(text, secrets) ?? '';
    for (const value of ['intranet', 'welcome', 'k-998877', 'hunter2', 'secret', 'abc123'])
      expect(shown.toLowerCase()).not.toContain(value);
    // Decoded from any start, no base64 run left in the text holds a value.
    for (const run of shown.match(/[A-Za-z0-9+/]{4,}/g) ?? [])
      for (const start of [0, 1, 2, 3]) {
        const decoded = Buffer.from(run.slice(start), 'base64').toString('latin1');
        for (const value of ['k-998877', 'hunter2', 'admin:hunter2']) expect(decoded).not.toContain(value);
      }
  });

  it('withholds a shown error that still holds a value too short to mask (match_string "OK")', () => {
    const short = privateSecrets({ url: 'tcp://10.0.0.7:25', match_string: 'OK' });
    expect(shownError('banner does not contain "OK"', short)).toBe(privateWithheldError);
    expect(shownError('banner does not contain "ok"', short)).toBe(privateWithheldError);
    expect(shownError('connection refused', short)).toBe('connection refused');
  });

  it('masks any URL even when it is not part of the definition', () => {
    expect(redactPrivate('moved to http://10.1.2.3/login now', [])).toBe('moved to [private] now');
  });

  it('shows the UI (notifications) what is sent, never the raw private error', () => {
    expect(shownError('body does not contain "Welcome Bob"', secrets)).toBe('body does not contain "[private]"');
    expect(shownError('body does not contain "Welcome Bob"', undefined)).toBe('body does not contain "Welcome Bob"');
  });
});
