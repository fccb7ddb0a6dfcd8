// Issue 12 §1: the connectivity verdict follows the same path as the traffic it judges. In an
// office whose firewall drops direct connections, the agent reaches the server only through the
// proxy; when the server is down behind it, the proxy still answers: "server unavailable", not
// an outage. (Without the proxy as the target, the direct probe hangs and the agent would call
// itself offline and keep failures as skipped.)
import { afterEach, describe, expect, it } from 'vitest';
import { enrolledAgent } from '../../support/agent-harness.ts';
import { createAgent, type Agent } from '../../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/index.ts';
import { withOrg } from '../../reference-server/testing.ts';
import { eventually, fastTunables } from '../../support/agent-harness.ts';
import { tempDataDir } from '../../support/cli.ts';
import { startForwardProxy, type ForwardProxy } from '../../targets/forward-proxy.ts';
import { startSilentPort, type SilentPort } from '../../targets/silent-port.ts';

describe('connectivity through the proxy', () => {
  let server: ReferenceServer;
  let proxy: ForwardProxy;
  let silent: SilentPort;
  let agent: Agent;
  afterEach(async () => {
    await agent.stop();
    await proxy.close();
    await silent.close();
    await server.close();
  });

  it('counts the proxy answering as online while the server behind it is down', async () => {
    server = await startReferenceServer();
    const { token } = withOrg(server);
    // The server's address as the agent knows it drops direct connections; the proxy reaches it.
    silent = await startSilentPort();
    const serverUrl = `http://127.0.0.1:${silent.port}`;
    proxy = await startForwardProxy({ routes: { [`127.0.0.1:${silent.port}`]: Number(new URL(server.url).port) } });
    const dataDir = await tempDataDir();
    agent = createAgent({
      dataDir,
      vault: fileKeyVault(dataDir),
      tunables: fastTunables,
      network: { proxyUrl: proxy.url },
      env: {},
    });
    await agent.start();
    const enrolled = await agent.enroll({ server: serverUrl, token, name: 'n', region: 'r', country: 'c', city: 'x' });
    expect(enrolled.ok).toBe(true);
    await eventually(() => agent.state().loops.sync.lastOkAt, 10_000, 'a sync through the proxy');

    await server.stop();
    await eventually(
      () => agent.state().loops.sync.lastError?.includes('(502)'),
      10_000,
      'the proxy saying the server is unreachable',
    );
    // Several more calls through the proxy, each answered 502, have had their chance to make the
    // agent call an outage (counted at the proxy, not waited for).
    const asked = (): number => proxy.connects.length + proxy.plain.length;
    const before = asked();
    await eventually(() => asked() >= before + 3, 10_000, 'three more calls through the proxy');
    expect(agent.state().online).toBe(true);
    expect(agent.outages()).toEqual([]);
    // As data, for the window to word: the proxy in use could not reach the server.
    expect(agent.snapshot().problems.find((p) => p.kind === 'server-connection')?.failure).toEqual({
      kind: 'network',
      cause: 'proxy-upstream',
      proxy: proxy.url,
      status: 502,
    });
  });
});

describe('network settings changed while running', () => {
  it('take effect at once: a refusing proxy is a problem naming it, removing it clears the problem', async () => {
    const h = await enrolledAgent({ agent: { env: {} } });
    const refusing = await startForwardProxy({ refuseWith: 403 });
    try {
      await h.agent.setNetwork({ proxyUrl: `http://office:s3cret@127.0.0.1:${refusing.port}` });
      const failed = await h.agent.syncNow();
      expect(failed.ok).toBe(false);
      expect(refusing.connects).toContain(new URL(h.server.url).host);
      const problem = h.agent.snapshot().problems.find((p) => p.kind === 'server-connection');
      expect(problem?.failure).toEqual({
        kind: 'network',
        cause: 'proxy-denied',
        proxy: `http://office:***@127.0.0.1:${refusing.port}`,
        status: 403,
      });
      expect(JSON.stringify(h.agent.snapshot())).not.toContain('s3cret');

      await h.agent.setNetwork({});
      expect((await h.agent.syncNow()).ok).toBe(true);
      expect(h.agent.snapshot().problems.map((p) => p.kind)).not.toContain('server-connection');
    } finally {
      await refusing.close();
      await h.close();
    }
  });
});
