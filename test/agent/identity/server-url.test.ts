import { describe, expect, it } from 'vitest';
import { isLoopbackHost, parseServerUrl } from '../../../src-main/agent/identity/server-url.ts';

describe('parseServerUrl', () => {
  it.each([
    { name: 'https is fine', input: 'https://uptime.example.com/', url: 'https://uptime.example.com' },
    { name: 'a path prefix is kept', input: ' https://example.com/uptime/ ', url: 'https://example.com/uptime' },
    { name: 'http to 127.0.0.1', input: 'http://127.0.0.1:8080', url: 'http://127.0.0.1:8080' },
    { name: 'http to localhost', input: 'http://localhost:1', url: 'http://localhost:1' },
    { name: 'http to ::1', input: 'http://[::1]:1', url: 'http://[::1]:1' },
  ])('accepts: $name', ({ input, url }) => {
    expect(parseServerUrl(input)).toEqual({ ok: true, url });
  });

  it.each([
    { name: 'not a url', input: 'uptime.example.com', says: 'not a valid server URL' },
    { name: 'ftp', input: 'ftp://example.com', says: 'must start with https:// or http:// (got ftp://)' },
    {
      name: 'a typo in the scheme',
      input: 'htp://uptime.example',
      says: 'must start with https:// or http:// (got htp://)',
    },
    { name: 'credentials', input: 'https://u:p@example.com', says: 'user name or password' },
    { name: 'query', input: 'https://example.com/?a=1', says: 'query' },
    { name: 'plain http elsewhere', input: 'http://example.com', says: 'in clear' },
  ])('refuses: $name', ({ input, says }) => {
    const outcome = parseServerUrl(input);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toContain(says);
  });

  it('allows plain http elsewhere only when asked to', () => {
    expect(parseServerUrl('http://example.com', true)).toEqual({ ok: true, url: 'http://example.com' });
  });

  it.each(['127.0.0.1', '127.5.6.7', 'localhost', 'a.localhost', '[::1]'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['10.0.0.1', 'example.com', '128.0.0.1', 'localhost.example.com'])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
