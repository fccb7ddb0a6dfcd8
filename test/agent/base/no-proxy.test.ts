// One NO_PROXY for the server route and the checks' dial (issue 23): the rows marked "was split"
// are the inputs the two former matchers (wire/proxy.ts and probes/no-proxy.ts) disagreed on.
import { describe, expect, it } from 'vitest';
import { bypassesProxy } from '../../../src-main/agent/base/no-proxy.ts';
import { proxyFor } from '../../../src-main/agent/wire/proxy.ts';

const rows: { name: string; list: string | undefined; host: string; port: number; direct: boolean }[] = [
  { name: 'unset', list: undefined, host: 'a.test', port: 80, direct: false },
  { name: 'empty', list: '', host: 'a.test', port: 80, direct: false },
  { name: 'only separators', list: ' , ,', host: 'a.test', port: 80, direct: false },
  { name: 'wildcard', list: '*', host: 'a.test', port: 80, direct: true },
  { name: 'wildcard after others', list: 'x.test, *', host: 'anything', port: 1, direct: true },
  { name: 'exact name', list: 'a.test', host: 'a.test', port: 80, direct: true },
  { name: 'case does not matter', list: 'A.TEST', host: 'a.Test', port: 80, direct: true },
  { name: 'trailing dot on the host', list: 'a.test', host: 'a.test.', port: 80, direct: true },
  { name: 'name covers subdomains', list: 'example.com', host: 'up.example.com', port: 443, direct: true },
  { name: 'suffix is not a subdomain', list: 'example.com', host: 'notexample.com', port: 443, direct: false },
  { name: 'leading dot, subdomain', list: '.example.com', host: 'a.example.com', port: 443, direct: true },
  {
    name: 'leading dot, the domain itself (was split)',
    list: '.example.com',
    host: 'example.com',
    port: 443,
    direct: true,
  },
  { name: 'star dot, subdomain', list: '*.example.com', host: 'a.example.com', port: 443, direct: true },
  {
    name: 'star dot, the domain itself (was split)',
    list: '*.example.com',
    host: 'example.com',
    port: 443,
    direct: true,
  },
  { name: 'wildcard on one port (was split)', list: '*:443', host: 'a.test', port: 443, direct: true },
  { name: 'wildcard on another port', list: '*:443', host: 'a.test', port: 80, direct: false },
  { name: 'name on its port', list: 'a.test:8080', host: 'a.test', port: 8080, direct: true },
  { name: 'name on another port', list: 'a.test:8080', host: 'a.test', port: 80, direct: false },
  { name: 'space separated', list: 'localhost 127.0.0.1:8080', host: '127.0.0.1', port: 8080, direct: true },
  { name: 'IPv4 whole', list: 'x.test, 10.0.0.1', host: '10.0.0.1', port: 22, direct: true },
  { name: 'IPv4 never by suffix (was split)', list: '0.0.1', host: '10.0.0.1', port: 22, direct: false },
  { name: 'IPv6 bare entry, bracketed host', list: '::1', host: '[::1]', port: 80, direct: true },
  { name: 'IPv6 bracketed entry', list: '[::1]', host: '::1', port: 443, direct: true },
  { name: 'IPv6 with port', list: '[::1]:8080', host: '::1', port: 8080, direct: true },
  { name: 'IPv6 with another port', list: '[::1]:8080', host: '::1', port: 80, direct: false },
  {
    name: 'IPv6 bare ends in digits, not a port',
    list: '2001:db8::10',
    host: '[2001:db8::10]',
    port: 443,
    direct: true,
  },
  { name: 'IPv6 case', list: '2001:DB8::A', host: '2001:db8::a', port: 443, direct: true },
];

describe('NO_PROXY, one rule for server and checks', () => {
  it.each(rows)('$name: "$list" for $host:$port', ({ list, host, port, direct }) => {
    expect(bypassesProxy(list, host, port)).toBe(direct);
  });

  // The server route reads the same rule through proxyFor (the URL's default port included).
  it.each(rows.filter((r) => r.list !== undefined && !r.host.endsWith('.')))(
    'server route agrees: $name',
    ({ list, host, port, direct }) => {
      const target = `https://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
      const outcome = proxyFor(target, 'http://proxy.test:3128', { NO_PROXY: list });
      expect(outcome).toMatchObject({ ok: true });
      if (outcome.ok) expect(outcome.proxy === undefined).toBe(direct);
    },
  );
});
