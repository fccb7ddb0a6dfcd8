// Issue 12 §1-2 through the real command: enroll behind a loopback forward proxy (from the
// environment or --proxy, with and without credentials, refusing), and against an https server
// whose certificate an office CA made in the test signed.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { runCli, tempDataDir } from '../support/cli.ts';
import { enrollArgs, statusJson } from '../support/cli-agent.ts';
import { startForwardProxy, type ForwardProxy } from '../targets/forward-proxy.ts';
import { startHttpsFront, type HttpsFront } from '../support/https-front.ts';
import { makeCa, makeLeaf } from '../targets/certs.ts';

/** No proxy from the machine running the tests leaks in; each case sets its own. */
const noProxyEnv = { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '' };

describe('enroll on an office network', () => {
  let server: ReferenceServer;
  let token: string;
  const proxies: ForwardProxy[] = [];
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token } = withOrg(server));
  });
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await server.close();
  });
  const proxy = async (options: Parameters<typeof startForwardProxy>[0] = {}) => {
    const p = await startForwardProxy(options);
    proxies.push(p);
    return p;
  };
  const enroll = async (serverUrl: string, env: NodeJS.ProcessEnv, ...extra: string[]) => {
    const dataDir = await tempDataDir();
    const result = await runCli(enrollArgs({ url: serverUrl }, token, dataDir, ...extra), {
      env: { ...noProxyEnv, ...env },
    });
    return { ...result, dataDir };
  };
  const host = () => new URL(server.url).host;

  it.each([
    { name: 'HTTP_PROXY', env: (p: string) => ({ HTTP_PROXY: p }) },
    {
      name: 'lowercase http_proxy, which wins over HTTP_PROXY',
      env: (p: string) => ({ http_proxy: p, HTTP_PROXY: 'http://127.0.0.1:9' }),
    },
  ])('goes through the proxy of $name', async ({ env }) => {
    const p = await proxy();
    const result = await enroll(server.url, env(p.url));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(p.connects).toContain(host());
  });

  it('takes --proxy over the environment, keeps basic credentials out of every output, and saves the setting', async () => {
    const good = await proxy({ credentials: { user: 'office', password: 's3cret' } });
    const refusing = await proxy({ refuseWith: 403 });
    const proxyUrl = `http://office:s3cret@127.0.0.1:${good.port}`;
    const result = await enroll(
      server.url,
      { HTTP_PROXY: refusing.url },
      '--proxy',
      proxyUrl,
      '--egress-policy',
      'strict',
    );
    expect(result.code).toBe(0);
    expect(good.connects).toContain(host());
    expect([...refusing.connects, ...refusing.plain]).toEqual([]);
    expect(result.stdout + result.stderr).not.toContain('s3cret');
    const saved = JSON.parse(await readFile(join(result.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ proxyUrl, egressPolicy: 'strict' });
    const status = await statusJson<Record<string, unknown>>(result.dataDir);
    expect(status.egress_policy).toBe('strict');
  });

  it('lets NO_PROXY exempt the server', async () => {
    const result = await enroll(server.url, { HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: 'example.com, 127.0.0.1' });
    expect(result.code).toBe(0);
  });

  it.each([
    {
      name: 'wrong credentials (407)',
      opts: { credentials: { user: 'office', password: 'right' } },
      user: 'office:wrong@',
      says: ['asks for a user name and password (407)', 'office:***@'],
    },
    {
      name: 'a refused tunnel (403)',
      opts: { refuseWith: 403 },
      user: '',
      says: ['refused to connect to', '(403)', 'network administrator'],
    },
    { name: 'an upstream failure (502)', opts: { refuseWith: 502 }, user: '', says: ['(502)', 'NO_PROXY'] },
  ])('exits 7 naming the proxy on $name', async ({ opts, user, says }) => {
    const p = await proxy(opts);
    const result = await enroll(server.url, {}, '--proxy', `http://${user}127.0.0.1:${p.port}`);
    expect(result.code).toBe(7);
    const line = result.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    for (const part of says) expect(line).toContain(part);
    expect(line).toContain(`127.0.0.1:${p.port}`);
    expect(line).not.toContain('wrong');
    expect(line).not.toContain('check the server is running');
  });

  it.each([
    { name: 'a malformed proxy URL', value: 'http://[oops', says: 'not a valid URL' },
    { name: 'an unsupported scheme', value: 'socks5://127.0.0.1:1080', says: 'socks5, which is not supported' },
    {
      name: 'a closed proxy port',
      value: 'http://127.0.0.1:9',
      says: 'could not reach the proxy http://127.0.0.1:9: connection refused',
    },
  ])('exits 7 with one line on $name', async ({ value, says }) => {
    const result = await enroll(server.url, {}, '--proxy', value);
    expect(result.code).toBe(7);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(says);
  });
});

describe('enroll with a private CA', () => {
  let server: ReferenceServer;
  let token: string;
  let front: HttpsFront;
  let caFile: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token } = withOrg(server));
    const ca = await makeCa('Office Test CA');
    const other = await makeCa('Unrelated CA');
    front = await startHttpsFront(server.url, await makeLeaf({ ca }));
    // A bundle of several certificates, the office's among them.
    caFile = join(await tempDataDir(), 'office-ca.pem');
    await writeFile(caFile, `${other.cert}\n${ca.cert}\n`);
  });
  afterAll(async () => {
    await front.close();
    await server.close();
  });
  const enroll = async (env: NodeJS.ProcessEnv, ...extra: string[]) =>
    runCli(enrollArgs(front, token, await tempDataDir(), ...extra), { env: { ...noProxyEnv, ...env } });

  it('explains an untrusted server certificate with its issuer', async () => {
    const result = await enroll({});
    expect(result.code).toBe(7);
    expect(result.stderr).toContain("the server's certificate is not trusted: signed by CN=Office Test CA");
    expect(result.stderr).toContain('Add your CA in Settings');
    expect(result.stderr).not.toContain('server is running');
  });

  it('trusts the bundle given with --server-ca, also through a proxy', async () => {
    expect((await enroll({}, '--server-ca', caFile)).code).toBe(0);
    const p = await startForwardProxy();
    try {
      const result = await enroll({ HTTPS_PROXY: p.url }, '--server-ca', caFile);
      expect(result.code).toBe(0);
      expect(p.connects).toContain(new URL(front.url).host);
    } finally {
      await p.close();
    }
  });

  it('says which CA file is unusable', async () => {
    const result = await enroll({}, '--server-ca', join(caFile, '..', 'missing.pem'));
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('missing.pem does not exist');
  });
});
