// Issue 24 §7: the cookie rules of one run, as a browser applies them (RFC 6265): what is
// stored from Set-Cookie and what is sent back to which URL. Pure: a wall clock in a variable.
import { describe, expect, it } from 'vitest';
import { createCookieJar } from '../../../src-main/agent/probes/cookie-jar.ts';

const at = (href: string): URL => new URL(href);

function jarWith(lines: string[], from: string, clock = { now: 1_000_000 }) {
  const jar = createCookieJar(() => clock.now);
  jar.store(lines, at(from));
  return jar;
}

describe('cookie jar', () => {
  it.each([
    {
      title: 'a host-only cookie goes back to its host',
      lines: ['a=1'],
      from: 'http://shop.test/',
      to: 'http://shop.test/x',
      sent: 'a=1',
    },
    {
      title: 'a host-only cookie never goes to a subdomain',
      lines: ['a=1'],
      from: 'http://shop.test/',
      to: 'http://www.shop.test/',
      sent: undefined,
    },
    {
      title: 'nor to another host',
      lines: ['a=1'],
      from: 'http://shop.test/',
      to: 'http://other.test/',
      sent: undefined,
    },
    {
      title: 'cookies do not isolate ports (RFC 6265 §8.5)',
      lines: ['a=1'],
      from: 'http://shop.test:8080/',
      to: 'http://shop.test:9090/',
      sent: 'a=1',
    },
    {
      title: 'Domain covers subdomains',
      lines: ['a=1; Domain=.shop.test'],
      from: 'http://www.shop.test/',
      to: 'http://api.shop.test/',
      sent: 'a=1',
    },
    {
      title: 'a Domain that does not cover the host is refused',
      lines: ['a=1; Domain=other.test'],
      from: 'http://shop.test/',
      to: 'http://other.test/',
      sent: undefined,
    },
    {
      title: 'a single-label Domain is refused',
      lines: ['a=1; Domain=test'],
      from: 'http://shop.test/',
      to: 'http://evil.test/',
      sent: undefined,
    },
    {
      title: 'the default path is the directory of the request',
      lines: ['a=1'],
      from: 'http://shop.test/app/login',
      to: 'http://shop.test/app/home',
      sent: 'a=1',
    },
    {
      title: 'outside the default path nothing is sent',
      lines: ['a=1'],
      from: 'http://shop.test/app/login',
      to: 'http://shop.test/other',
      sent: undefined,
    },
    {
      title: 'Path is a prefix on a / boundary',
      lines: ['a=1; Path=/app'],
      from: 'http://shop.test/',
      to: 'http://shop.test/application',
      sent: undefined,
    },
    {
      title: 'Path covers what is below it',
      lines: ['a=1; Path=/app'],
      from: 'http://shop.test/',
      to: 'http://shop.test/app/x',
      sent: 'a=1',
    },
    {
      title: 'Secure cookies go over https only',
      lines: ['a=1; Secure'],
      from: 'https://shop.test/',
      to: 'http://shop.test/',
      sent: undefined,
    },
    {
      title: 'Secure cookies are not set over http',
      lines: ['a=1; Secure'],
      from: 'http://shop.test/',
      to: 'https://shop.test/',
      sent: undefined,
    },
    {
      title: 'Max-Age=0 stores nothing',
      lines: ['a=1; Max-Age=0'],
      from: 'http://shop.test/',
      to: 'http://shop.test/',
      sent: undefined,
    },
    {
      title: 'a past Expires stores nothing',
      lines: ['a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT'],
      from: 'http://shop.test/',
      to: 'http://shop.test/',
      sent: undefined,
    },
    {
      title: 'Max-Age wins over Expires',
      lines: ['a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=60'],
      from: 'http://shop.test/',
      to: 'http://shop.test/',
      sent: 'a=1',
    },
    {
      title: 'a line without "=" is ignored',
      lines: ['junk', 'b=2'],
      from: 'http://shop.test/',
      to: 'http://shop.test/',
      sent: 'b=2',
    },
    {
      title: 'longer paths first, then older first',
      lines: ['a=1', 'b=2; Path=/app', 'c=3'],
      from: 'http://shop.test/',
      to: 'http://shop.test/app',
      sent: 'b=2; a=1; c=3',
    },
    {
      title: 'the same name, domain and path replaces',
      lines: ['a=1', 'a=2'],
      from: 'http://shop.test/',
      to: 'http://shop.test/',
      sent: 'a=2',
    },
  ])('$title', ({ lines, from, to, sent }) => {
    expect(jarWith(lines, from).header(at(to))).toBe(sent);
  });

  it('a cookie expires with the wall clock', () => {
    const clock = { now: 1_000_000 };
    const jar = jarWith(['a=1; Max-Age=5'], 'http://shop.test/', clock);
    expect(jar.header(at('http://shop.test/'))).toBe('a=1');
    clock.now += 5_000;
    expect(jar.header(at('http://shop.test/'))).toBeUndefined();
  });

  it('a later Max-Age=0 deletes the cookie', () => {
    const jar = jarWith(['a=1'], 'http://shop.test/');
    jar.store(['a=gone; Max-Age=0'], at('http://shop.test/'));
    expect(jar.header(at('http://shop.test/'))).toBeUndefined();
  });
});
