// Issue 12 §3, probe side: the strict egress policy refuses internal addresses after
// resolution, pinned, on every hop, for every scheme. Private-range cases are resolved by a
// test resolver and must be refused before any connection: no traffic leaves loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { ProbeContext, ResolvedAddress } from '../../../src-main/agent/probes/types.ts';
import {
  startForwardProxy,
  startHttpTarget,
  startTcpTarget,
  type ForwardProxy,
  type HttpTarget,
  type SocketTarget,
} from '../../targets/index.ts';
import { definition } from './definition.ts';

let web: HttpTarget;
let ssh: SocketTarget;
let proxy: ForwardProxy;
beforeAll(async () => {
  web = await startHttpTarget({
    '/': { body: 'home' },
    '/to-intranet': { status: 302, redirect: 'http://intranet.test/admin' },
    '/to-loopback': { status: 302, redirect: 'http://127.0.0.1:1/' },
    '/to-self': { status: 302, redirect: '/' },
  });
  ssh = await startTcpTarget({ banner: 'SSH-2.0-OpenSSH_9.6\r\n' });
  // "site.test" resolves to a public documentation address; the proxy maps it to the loopback
  // target, so a strict run can be followed through a redirect without leaving 127.0.0.1.
  proxy = await startForwardProxy({ routes: { '198.51.100.7:80': web.port } });
});
afterAll(async () => {
  await Promise.all([web.close(), ssh.close(), proxy.close()]);
});

/** A resolver from a table, counting lookups per name. */
function tableResolver(table: Record<string, string[]>): {
  resolve: ProbeContext['resolve'] & object;
  lookups: string[];
} {
  const lookups: string[] = [];
  return {
    lookups,
    resolve: (hostname) => {
      lookups.push(hostname);
      const found = table[hostname];
      if (found === undefined) return Promise.reject(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' }));
      return Promise.resolve(
        found.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    },
  };
}

describe('strict egress policy in the probes', () => {
  it.each([
    { name: 'http to a loopback literal', url: () => `${web.url}/`, reason: '127.0.0.1 is a loopback address' },
    { name: 'tcp to a loopback literal', url: () => ssh.url, reason: '127.0.0.1 is a loopback address' },
    {
      name: 'tls to an IPv4-mapped loopback literal',
      url: () => `tls://[::ffff:127.0.0.1]:${ssh.port}`,
      reason: '::ffff:7f00:1 is a loopback address',
    },
    {
      name: 'https to a name resolving to loopback',
      url: () => `https://app.test:${web.port}/`,
      reason: 'app.test resolves to 127.0.0.1, a loopback address',
    },
    {
      name: 'tcp to a name resolving to a private address',
      url: () => 'tcp://intranet.test:22',
      reason: 'intranet.test resolves to 10.0.0.5, a private address',
    },
    {
      name: 'http to the metadata address by name',
      url: () => 'http://metadata.test/latest/',
      reason: 'metadata.test resolves to 169.254.169.254, a link-local address',
    },
    {
      name: 'a name with one public and one private address',
      url: () => 'https://mixed.test/',
      reason: 'mixed.test resolves to 192.168.0.10, a private address',
    },
  ])('refuses $name before any connection', async ({ url, reason }) => {
    const { resolve } = tableResolver({
      'app.test': ['127.0.0.1'],
      'intranet.test': ['10.0.0.5'],
      'metadata.test': ['169.254.169.254'],
      'mixed.test': ['198.51.100.7', '192.168.0.10'],
    });
    const connectionsBefore = web.connections() + ssh.connections();
    const out = await runProbe(definition({ url: url(), match_string: 'x' }), { egressPolicy: 'strict', resolve });
    expect(out).toMatchObject({
      success: false,
      answered: false,
      latencyMs: 0,
      decidedBy: 'egress-policy',
      error: `blocked by egress policy: ${reason}`,
    });
    expect(web.connections() + ssh.connections()).toBe(connectionsBefore);
  });

  it('the open policy reaches the same loopback targets', async () => {
    const { resolve } = tableResolver({ 'app.test': ['127.0.0.1'] });
    expect(
      await runProbe(definition({ url: `http://app.test:${web.port}/` }), { egressPolicy: 'open', resolve }),
    ).toMatchObject({ success: true });
    expect(await runProbe(definition({ url: ssh.url, match_string: 'SSH-' }), {})).toMatchObject({ success: true });
  });

  it('each hop is resolved once and connects to the address it resolved (no second lookup)', async () => {
    const { resolve, lookups } = tableResolver({ 'app.test': ['127.0.0.1'] });
    const out = await runProbe(definition({ url: `http://app.test:${web.port}/to-self` }), { resolve });
    expect(out).toMatchObject({ success: true, httpStatus: 200 });
    expect(lookups).toEqual(['app.test', 'app.test']);
    expect(out.timings?.dnsMs).toBeGreaterThanOrEqual(0);
  });

  it('checks every redirect hop: a public site redirecting inward is refused at that hop', async () => {
    const { resolve, lookups } = tableResolver({ 'site.test': ['198.51.100.7'], 'intranet.test': ['10.0.0.5'] });
    const requestsBefore = web.requests.length;
    const out = await runProbe(definition({ url: 'http://site.test/to-intranet' }), {
      egressPolicy: 'strict',
      resolve,
      proxy: { url: proxy.url },
    });
    expect(out).toMatchObject({
      success: false,
      decidedBy: 'egress-policy',
      error: 'blocked by egress policy: intranet.test resolves to 10.0.0.5, a private address',
    });
    // The first hop went through, pinned: the proxy was asked for the checked address.
    expect(web.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/to-intranet']);
    expect(proxy.connects.at(-1)).toBe('198.51.100.7:80');
    expect(lookups).toEqual(['site.test', 'intranet.test']);
  });

  it('a redirect to a loopback literal is refused too', async () => {
    const { resolve } = tableResolver({ 'site.test': ['198.51.100.7'] });
    const out = await runProbe(definition({ url: 'http://site.test/to-loopback' }), {
      egressPolicy: 'strict',
      resolve,
      proxy: { url: proxy.url },
    });
    expect(out).toMatchObject({ success: false, error: 'blocked by egress policy: 127.0.0.1 is a loopback address' });
  });
});
