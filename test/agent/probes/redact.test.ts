import { describe, expect, it } from 'vitest';
import { redactHeaders, redactUrl } from '../../../src-main/agent/probes/redact.ts';

describe('redactUrl', () => {
  it.each([
    { name: 'no userinfo unchanged', url: 'https://example.test/a?b=1', out: 'https://example.test/a?b=1' },
    {
      name: 'password masked, user kept',
      url: 'https://bob:s3cret@example.test/x',
      out: 'https://bob:***@example.test/x',
    },
    {
      name: 'percent-encoded password masked',
      url: 'http://bob:p%40ss@example.test/',
      out: 'http://bob:***@example.test/',
    },
    { name: 'user only unchanged', url: 'http://bob@example.test/', out: 'http://bob@example.test/' },
    { name: 'tcp URL', url: 'tcp://u:pw@host:22', out: 'tcp://u:***@host:22' },
    { name: 'unparsable with password', url: 'http://bob:s3cret@exa mple/', out: 'http://bob:***@exa mple/' },
    { name: 'unparsable with @ in password', url: 'http://bob:se@cret@[bad/x', out: 'http://bob:***@[bad/x' },
    { name: 'unparsable without userinfo', url: 'not a url', out: 'not a url' },
  ])('$name', ({ url, out }) => {
    const redacted = redactUrl(url);
    expect(redacted).toBe(out);
    expect(redacted).not.toMatch(/s3cret|p%40ss|se@cret|:pw@/);
  });
});

describe('redactHeaders', () => {
  it('keeps names and hides every value', () => {
    expect(redactHeaders({ Authorization: 'Bearer abc', 'X-Test': '1' })).toEqual({
      Authorization: '***',
      'X-Test': '***',
    });
    expect(redactHeaders(undefined)).toEqual({});
  });
});
