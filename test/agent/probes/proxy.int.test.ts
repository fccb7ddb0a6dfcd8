// Issue 12 §1, probe side: checks the user opted into the proxy go through a CONNECT tunnel
// (every scheme), NO_PROXY is honoured per target, and the outcome says it was proxied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { ProbeContext } from '../../../src-main/agent/probes/types.ts';
import {
  makeCa,
  makeLeaf,
  startForwardProxy,
  startHttpTarget,
  startTcpTarget,
  startTlsTarget,
  type ForwardProxy,
  type HttpTarget,
  type KeyPair,
  type SocketTarget,
} from '../../targets/index.ts';
import { definition } from './definition.ts';

let ca: KeyPair;
let web: HttpTarget;
let secure: HttpTarget;
let ssh: SocketTarget;
let tls: SocketTarget;
let open: ForwardProxy;
let guarded: ForwardProxy;
let refusing: ForwardProxy;
beforeAll(async () => {
  ca = await makeCa('Office CA');
  const leaf = await makeLeaf({ ca });
  [web, secure, ssh, tls, open, guarded, refusing] = await Promise.all([
    startHttpTarget({ '/': { body: 'through' } }),
    startHttpTarget({ '/': { body: 'secure through' } }, { tls: leaf }),
    startTcpTarget({ banner: 'SSH-2.0-OpenSSH_9.6\r\n' }),
    startTlsTarget(leaf),
    startForwardProxy(),
    startForwardProxy({ credentials: { user: 'office', password: 's3cret' } }),
    startForwardProxy({ refuseWith: 403 }),
  ]);
});
afterAll(async () => {
  await Promise.all([web, secure, ssh, tls, open, guarded, refusing].map((t) => t.close()));
});

const via = (proxy: ForwardProxy, extra: Partial<ProbeContext> = {}, auth = ''): ProbeContext => ({
  ca: [ca.cert],
  proxy: { url: proxy.url.replace('http://', `http://${auth}`) },
  ...extra,
});

describe('checks through the proxy', () => {
  it.each([
    { scheme: 'http', url: () => `${web.url}/`, fields: { match_string: 'through' }, port: () => web.port },
    {
      scheme: 'https',
      url: () => `${secure.url}/`,
      fields: { match_string: 'secure through' },
      port: () => secure.port,
    },
    { scheme: 'tcp', url: () => ssh.url, fields: { match_string: 'SSH-2.0' }, port: () => ssh.port },
    { scheme: 'tls', url: () => tls.url, fields: { match_string: 'issuer=CN=Office CA' }, port: () => tls.port },
  ])('$scheme goes through a CONNECT tunnel and says so', async ({ url, fields, port }) => {
    const before = open.connects.length;
    const out = await runProbe(definition({ url: url(), ...fields }), via(open));
    expect(out).toMatchObject({ success: true, error: '', answered: true, viaProxy: open.url });
    expect(open.connects.slice(before)).toEqual([`127.0.0.1:${port()}`]);
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it('https through the proxy still sees and judges the target certificate', async () => {
    const out = await runProbe(definition({ url: `${secure.url}/` }), via(open));
    expect(out.certificate).toMatchObject({ subject: 'CN=localhost', issuer: 'CN=Office CA' });
    expect(await runProbe(definition({ url: `${secure.url}/` }), { proxy: { url: open.url } })).toMatchObject({
      success: false,
      error: 'TLS certificate not trusted (unknown issuer)',
    });
  });

  it('credentials: accepted, and masked wherever the proxy is named', async () => {
    const out = await runProbe(definition({ url: `${web.url}/` }), via(guarded, {}, 'office:s3cret@'));
    expect(out).toMatchObject({ success: true, viaProxy: `http://office:***@127.0.0.1:${guarded.port}` });
  });

  it.each([
    {
      name: 'missing credentials (407)',
      proxy: () => via(guarded),
      error: () =>
        `proxy ${guarded.url} refused the connection (status 407): it wants credentials: put user and password in the proxy URL`,
    },
    {
      name: 'wrong credentials (407), password masked',
      proxy: () => via(guarded, {}, 'office:wrong@'),
      error: () =>
        `proxy http://office:***@127.0.0.1:${guarded.port} refused the connection (status 407): it wants credentials: put user and password in the proxy URL`,
    },
    {
      name: 'a proxy that refuses CONNECT (403)',
      proxy: () => via(refusing),
      error: () =>
        `proxy ${refusing.url} refused the connection (status 403): it does not allow this target: ask the network administrator, or exclude the target with NO_PROXY`,
    },
  ])('$name', async ({ proxy, error }) => {
    const out = await runProbe(definition({ url: `${web.url}/` }), proxy());
    expect(out).toMatchObject({ success: false, answered: true, decidedBy: 'connection', error: error() });
    expect(out.error).not.toContain('s3cret');
    expect(out.error).not.toContain('wrong');
  });

  it.each([
    { name: 'host listed', noProxy: '127.0.0.1', proxied: false },
    { name: 'host and its port listed', noProxy: () => `example.test, 127.0.0.1:${web.port}`, proxied: false },
    { name: 'another port listed', noProxy: '127.0.0.1:1', proxied: true },
    { name: 'everything', noProxy: '*', proxied: false },
    { name: 'another host', noProxy: 'intranet.test', proxied: true },
  ])('NO_PROXY per target: $name', async ({ noProxy, proxied }) => {
    const before = open.connects.length;
    const list = typeof noProxy === 'function' ? noProxy() : noProxy;
    const out = await runProbe(definition({ url: `${web.url}/` }), { proxy: { url: open.url, noProxy: list } });
    expect(out.success).toBe(true);
    expect(open.connects.length - before).toBe(proxied ? 1 : 0);
    expect(out.viaProxy).toBe(proxied ? open.url : undefined);
  });

  it('a proxy that is down fails the run with what was tried', async () => {
    const gone = await startForwardProxy();
    await gone.close();
    const out = await runProbe(definition({ url: `${web.url}/` }), { proxy: { url: gone.url } });
    expect(out).toMatchObject({
      success: false,
      answered: true,
      error: `proxy ${gone.url} could not be reached (connection refused): check the proxy setting`,
      viaProxy: gone.url,
    });
  });
});
