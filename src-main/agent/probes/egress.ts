// The egress policy of a shared-fleet monitor (issue 12 §3): checks written by other
// organisations must not reach into the network this agent runs in. Pure classification of one
// address; dial.ts applies it to every address a connection is about to use.
import { BlockList, isIP } from 'node:net';

export type EgressPolicy = 'open' | 'strict';

interface Range {
  kind: string;
  /** [network, prefix, family] */
  subnets: [string, number, 'ipv4' | 'ipv6'][];
}

// BlockList also matches IPv4-mapped IPv6 forms (::ffff:10.0.0.5, ::ffff:a00:5) against the IPv4
// subnets, so a mapped address cannot slip past as "IPv6".
const ranges: Range[] = [
  {
    kind: 'an unspecified address',
    subnets: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    kind: 'a loopback address',
    subnets: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    kind: 'a private address',
    subnets: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ],
  },
  {
    kind: 'a link-local address',
    subnets: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  },
  { kind: 'a shared (CGNAT) address', subnets: [['100.64.0.0', 10, 'ipv4']] },
  {
    kind: 'a multicast address',
    subnets: [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  },
  // 240/4 holds the limited broadcast address; nothing public lives there.
  { kind: 'a reserved address', subnets: [['240.0.0.0', 4, 'ipv4']] },
];

const lists = ranges.map(({ kind, subnets }) => {
  const list = new BlockList();
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
  return { kind, list };
});

// NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 address that the gateway then reaches.
const embedded: { prefix: RegExp; extract: (groups: string[]) => string }[] = [
  { prefix: /^64:ff9b::/i, extract: (g) => hexPairToIpv4(g.at(-2) ?? '0', g.at(-1) ?? '0') },
  { prefix: /^2002:/i, extract: (g) => hexPairToIpv4(g[1] ?? '0', g[2] ?? '0') },
];

function hexPairToIpv4(high: string, low: string): string {
  const h = parseInt(high, 16);
  const l = parseInt(low, 16);
  return [h >> 8, h & 0xff, l >> 8, l & 0xff].join('.');
}

/**
 * Why `address` (an IP literal) may not be reached under the strict policy, or undefined when
 * it may. Something that is not an IP address is refused: only resolved addresses are judged.
 */
export function egressRefusal(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return `${address} is not an IP address`;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const { kind, list } of lists) {
    if (list.check(bare, type)) return `${bare} is ${kind}`;
  }
  if (family === 6 && !bare.includes('.')) {
    for (const { prefix, extract } of embedded) {
      if (!prefix.test(bare)) continue;
      const inner = extract(expandIpv6(bare));
      const refusal = egressRefusal(inner);
      if (refusal !== undefined) return `${bare} embeds ${refusal}`;
    }
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 literal without dotted tail. */
function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right];
}

/** The error a blocked connection fails with; errors.ts turns it into the user's reason. */
export class EgressBlockedError extends Error {
  readonly code = 'EGRESS_BLOCKED';
  readonly reason: string;

  constructor(reason: string) {
    super(`blocked by egress policy: ${reason}`);
    this.name = 'EgressBlockedError';
    this.reason = reason;
  }
}
