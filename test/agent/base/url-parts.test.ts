import { describe, expect, it } from 'vitest';
import { bareHost, portOf } from '../../../src-main/agent/base/url-parts.ts';

describe('a URL read one way everywhere', () => {
  it.each([
    { url: 'https://up.example', host: 'up.example', port: 443 },
    { url: 'http://up.example', host: 'up.example', port: 80 },
    { url: 'https://up.example:8443/x', host: 'up.example', port: 8443 },
    { url: 'http://[::1]:8080', host: '::1', port: 8080 },
    { url: 'https://[2001:db8::1]', host: '2001:db8::1', port: 443 },
    { url: 'tcp://10.0.0.1:22', host: '10.0.0.1', port: 22 },
  ])('$url is $host port $port', ({ url, host, port }) => {
    const parsed = new URL(url);
    expect(bareHost(parsed.hostname)).toBe(host);
    expect(portOf(parsed)).toBe(port);
  });
});
