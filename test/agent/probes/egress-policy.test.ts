// Issue 24 §10: the strict egress policy refuses exactly what the server's own agent refuses
// (design.md "Office networks"): the address ranges after resolution, and the internal names
// before any lookup. A refusal of a name never quotes the address it resolved to, since for a
// private-definition check that address belongs to the network the definition must not reveal.
// Nothing here opens a socket: refused runs end before any connection.
import { describe, expect, it } from 'vitest';
import { egressRefusal, runProbe } from '../../../src-main/agent/probes/index.ts';
import type { ResolvedAddress } from '../../../src-main/agent/probes/types.ts';
import { definition } from './definition.ts';

describe('egressRefusal: the refused ranges', () => {
  it.each([
    // loopback, private, link-local, CGNAT, multicast, unspecified
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.0.0.5', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['fd12:3456::1', 'a private address'],
    ['fc00::1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['100.64.0.1', 'a shared (CGNAT) address'],
    ['100.127.255.254', 'a shared (CGNAT) address'],
    ['224.0.0.251', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['ff02::fb', 'a multicast address'],
    ['ff01::1', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    // the TEST-NETs, 192.0.0.0/24, 198.18.0.0/15, 240.0.0.0/4
    ['192.0.2.10', 'a reserved address'],
    ['198.51.100.7', 'a reserved address'],
    ['203.0.113.200', 'a reserved address'],
    ['192.0.0.170', 'a reserved address'],
    ['198.18.0.1', 'a reserved address'],
    ['198.19.255.255', 'a reserved address'],
    ['240.0.0.1', 'a reserved address'],
    ['255.255.255.255', 'a reserved address'],
    // IPv4-mapped forms are judged as the IPv4 address; NAT64 and 6to4 prefixes are refused whole
    ['::ffff:10.0.0.5', 'a private address'],
    ['::ffff:a00:5', 'a private address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['[::ffff:169.254.169.254]', 'a link-local address'],
    ['::ffff:198.51.100.7', 'a reserved address'],
    ['64:ff9b::a9fe:a9fe', 'a NAT64 address'],
    ['64:ff9b::5db8:d70e', 'a NAT64 address'],
    ['2002:c0a8:101::1', 'a 6to4 address'],
    ['2002:5db8:d70e::1', 'a 6to4 address'],
  ])('%s is %s', (address, kind) => {
    const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
    expect(egressRefusal(address)).toBe(`${bare} is ${kind}`);
  });

  it.each([
    '93.184.215.14',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.32.0.1',
    '192.0.1.255',
    '192.0.3.1',
    '198.17.255.255',
    '198.20.0.1',
    '198.51.101.1',
    '203.0.112.255',
    '223.255.255.255',
    '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
    '::ffff:93.184.215.14',
    '64:ff9b:1::5db8:d70e',
    '2001:db8::1',
  ])('%s may be reached', (address) => {
    expect(egressRefusal(address)).toBeUndefined();
  });

  it('something that is not an IP address is refused', () => {
    expect(egressRefusal('example.test')).toBe('example.test is not an IP address');
  });
});

function countingResolver(table: Record<string, string[]>) {
  const lookups: string[] = [];
  const resolve = (hostname: string): Promise<ResolvedAddress[]> => {
    lookups.push(hostname);
    return Promise.resolve(
      (table[hostname] ?? []).map((address) => ({
        address,
        family: address.includes(':') ? (6 as const) : (4 as const),
      })),
    );
  };
  return { lookups, resolve };
}

describe('strict runs', () => {
  it.each([
    ['http://localhost/', 'localhost is this machine'],
    ['tcp://LOCALHOST.:22', 'localhost is this machine'],
    ['https://printer.local/', 'printer.local is an internal name that only resolves inside a private network'],
    ['tls://db.internal:5432', 'db.internal is an internal name that only resolves inside a private network'],
    ['http://nas.localdomain/', 'nas.localdomain is an internal name that only resolves inside a private network'],
    ['http://router.home.arpa/', 'router.home.arpa is an internal name that only resolves inside a private network'],
  ])('%s is refused by name, before any lookup', async (url, reason) => {
    const { lookups, resolve } = countingResolver({});
    const out = await runProbe(definition({ url }), { egressPolicy: 'strict', resolve });
    expect(out).toMatchObject({ success: false, answered: false, decidedBy: 'egress-policy' });
    expect(out.error).toBe(`blocked by egress policy: ${reason}`);
    expect(lookups).toEqual([]);
  });

  it('names that only look internal are resolved and judged by their address', async () => {
    const { lookups, resolve } = countingResolver({ 'local.example.test': ['198.51.100.9'] });
    const out = await runProbe(definition({ url: 'http://local.example.test/' }), { egressPolicy: 'strict', resolve });
    expect(out.error).toBe('blocked by egress policy: local.example.test resolves to a reserved address');
    expect(lookups).toEqual(['local.example.test']);
  });

  it('a refused name never quotes the address it resolved to', async () => {
    const { resolve } = countingResolver({ 'intranet.test': ['93.184.215.14', '10.20.30.40'] });
    const out = await runProbe(definition({ url: 'tcp://intranet.test:22' }), { egressPolicy: 'strict', resolve });
    expect(out.error).toBe('blocked by egress policy: intranet.test resolves to a private address');
    expect(out.error).not.toContain('10.20.30.40');
  });

  it('the open policy refuses no name', async () => {
    const { lookups, resolve } = countingResolver({ 'printer.local': [] });
    const out = await runProbe(definition({ url: 'http://printer.local/' }), { egressPolicy: 'open', resolve });
    expect(out.decidedBy).not.toBe('egress-policy');
    expect(lookups).toEqual(['printer.local']);
  });
});
