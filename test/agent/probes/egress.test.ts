// Issue 12 §3: the addresses the strict egress policy refuses, and why (the probes applying it
// after resolution, on every hop, are in egress.int.test.ts).
import { describe, expect, it } from 'vitest';
import { egressRefusal } from '../../../src-main/agent/probes/index.ts';

describe('egressRefusal', () => {
  it.each([
    { address: '127.0.0.1', reason: '127.0.0.1 is a loopback address' },
    { address: '127.255.0.9', reason: '127.255.0.9 is a loopback address' },
    { address: '::1', reason: '::1 is a loopback address' },
    { address: '10.0.0.5', reason: '10.0.0.5 is a private address' },
    { address: '172.16.0.1', reason: '172.16.0.1 is a private address' },
    { address: '172.31.255.255', reason: '172.31.255.255 is a private address' },
    { address: '192.168.1.1', reason: '192.168.1.1 is a private address' },
    { address: 'fd12:3456::1', reason: 'fd12:3456::1 is a private address' },
    { address: '169.254.169.254', reason: '169.254.169.254 is a link-local address' },
    { address: 'fe80::1', reason: 'fe80::1 is a link-local address' },
    { address: 'fe80::1%eth0', reason: 'fe80::1 is a link-local address' },
    { address: '100.64.0.1', reason: '100.64.0.1 is a shared (CGNAT) address' },
    { address: '100.127.255.254', reason: '100.127.255.254 is a shared (CGNAT) address' },
    { address: '224.0.0.251', reason: '224.0.0.251 is a multicast address' },
    { address: 'ff02::fb', reason: 'ff02::fb is a multicast address' },
    { address: '0.0.0.0', reason: '0.0.0.0 is an unspecified address' },
    { address: '::', reason: ':: is an unspecified address' },
    { address: '255.255.255.255', reason: '255.255.255.255 is a reserved address' },
    { address: '::ffff:10.0.0.5', reason: '::ffff:10.0.0.5 is a private address' },
    { address: '::ffff:a00:5', reason: '::ffff:a00:5 is a private address' },
    { address: '::ffff:127.0.0.1', reason: '::ffff:127.0.0.1 is a loopback address' },
    { address: '[::ffff:169.254.169.254]', reason: '::ffff:169.254.169.254 is a link-local address' },
    { address: '64:ff9b::a9fe:a9fe', reason: '64:ff9b::a9fe:a9fe embeds 169.254.169.254 is a link-local address' },
    { address: '2002:c0a8:101::1', reason: '2002:c0a8:101::1 embeds 192.168.1.1 is a private address' },
    { address: 'example.test', reason: 'example.test is not an IP address' },
    { address: '93.184.215.14', reason: undefined },
    { address: '100.63.255.255', reason: undefined },
    { address: '172.32.0.1', reason: undefined },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', reason: undefined },
    { address: '::ffff:93.184.215.14', reason: undefined },
    { address: '64:ff9b::5db8:d70e', reason: undefined },
  ])('$address', ({ address, reason }) => {
    expect(egressRefusal(address)).toBe(reason);
  });
});
