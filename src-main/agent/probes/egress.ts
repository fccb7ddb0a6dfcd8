// The egress policy of a shared-fleet monitor (issue 12 §3, issue 24 §10): checks written by
// other organisations must not reach into the network this agent runs in. `strict` refuses
// exactly what the server's own agent refuses, so a check the fleet runs fails or passes alike on
// both agents. Pure classification of one name or one address; dial.ts applies it to every hop.
import ipaddr from 'ipaddr.js';

export type EgressPolicy = 'open' | 'strict';

/** The refused ranges, by the words a reason uses (design.md "Office networks"). */
const refused: Record<string, string[]> = {
  // 0.0.0.0/8 ("this network") with 0.0.0.0: nothing reachable lives there either.
  'an unspecified address': ['0.0.0.0/8', '::/128'],
  'a loopback address': ['127.0.0.0/8', '::1/128'],
  'a private address': ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  'a link-local address': ['169.254.0.0/16', 'fe80::/10'],
  'a shared (CGNAT) address': ['100.64.0.0/10'],
  'a multicast address': ['224.0.0.0/4', 'ff00::/8'],
  // IETF protocol assignments, TEST-NET-1/2/3, benchmarking, and 240/4 (with the broadcast address).
  'a reserved address': [
    '192.0.0.0/24',
    '192.0.2.0/24',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '198.18.0.0/15',
    '240.0.0.0/4',
  ],
  // NAT64 and 6to4 put an IPv4 address behind a gateway, so the whole prefix is refused, as the
  // server's own agent does (IPv4-mapped forms are unmapped first, below).
  'a NAT64 address': ['64:ff9b::/96'],
  'a 6to4 address': ['2002::/16'],
};

const ranges: Parameters<typeof ipaddr.subnetMatch>[1] = Object.fromEntries(
  Object.entries(refused).map(([kind, cidrs]) => [kind, cidrs.map((cidr) => ipaddr.parseCIDR(cidr))]),
);

/** Names that only mean something inside somebody's network (and this machine's own name). */
const internalSuffixes = ['.local', '.internal', '.localdomain', '.home.arpa'];

/** The kind of address `address` is when strict refuses it, or undefined when it may be reached. */
export function refusedKind(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  // process() unmaps ::ffff:a.b.c.d, so a mapped address is judged as the IPv4 address it is.
  const kind = ipaddr.subnetMatch(ipaddr.process(bare), ranges, '');
  return kind === '' ? undefined : kind;
}

/**
 * Why `address` (an IP literal) may not be reached under the strict policy, or undefined when
 * it may. Something that is not an IP address is refused: only resolved addresses are judged.
 */
export function egressRefusal(address: string): string | undefined {
  const kind = refusedKind(address);
  return kind === undefined ? undefined : `${address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')} is ${kind}`;
}

/** Why the host name `host` is refused before any lookup, or undefined when it may be resolved. */
export function nameRefusal(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost') return 'localhost is this machine';
  if (internalSuffixes.some((suffix) => name.endsWith(suffix))) {
    return `${name} is an internal name that only resolves inside a private network`;
  }
  return undefined;
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
