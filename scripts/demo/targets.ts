// The demo's world: loopback targets in every state worth seeing (healthy, slow, flapping,
// failing, a TCP banner, TLS) and the checks that point at them, one of them private.
import { makeLeaf, startHttpTarget, startTcpTarget, startTlsTarget } from '../../test/targets/index.ts';
import type { SeedCheck } from '../../test/reference-server/seed.ts';

export interface DemoWorld {
  checks: SeedCheck[];
  /** The private definitions file's content: the one place the private check's target lives. */
  privateDefinitions: { checks: Record<string, unknown>[] };
  close(): Promise<void>;
}

export const privateGuid = 'demo-private-intranet';

export async function startDemoTargets(): Promise<DemoWorld> {
  let flapUp = false;
  const http = await startHttpTarget({
    '/health': { body: 'ok' },
    '/slow': { delayMs: 1_500, body: 'slow but fine' },
    '/fail': { status: 503, body: 'down for maintenance' },
    '/intranet': { body: 'intranet ok' },
    // Alternates on every request, so the check goes down and recovers again and again.
    '/flap': (_req, res) => {
      flapUp = !flapUp;
      res.writeHead(flapUp ? 200 : 500).end(flapUp ? 'up' : 'down');
    },
  });
  const leaf = await makeLeaf();
  const https = await startHttpTarget({ '/': { body: 'secure hello' } }, { tls: leaf });
  const tcp = await startTcpTarget({ banner: 'SSH-2.0-DemoSSH_1.0\r\n' });
  const tls = await startTlsTarget(leaf);

  // The certificates are generated for the demo, so nothing trusts them: the https and tls
  // checks skip verification (the agent's CLI has no flag for an extra CA).
  const checks: SeedCheck[] = [
    { guid: 'demo-healthy', name: 'Website (healthy)', url: `${http.url}/health`, interval_sec: 5, match_string: 'ok' },
    { guid: 'demo-slow', name: 'Reports API (slow, ~1.5 s)', url: `${http.url}/slow`, interval_sec: 10 },
    { guid: 'demo-flapping', name: 'Legacy app (flapping)', url: `${http.url}/flap`, interval_sec: 5 },
    { guid: 'demo-failing', name: 'Shop (failing with 503)', url: `${http.url}/fail`, interval_sec: 10 },
    {
      guid: 'demo-tcp',
      name: 'SSH port (TCP banner)',
      url: `tcp://127.0.0.1:${tcp.port}`,
      interval_sec: 10,
      match_string: 'SSH-2.0',
    },
    {
      guid: 'demo-tls',
      name: 'Mail server (TLS)',
      url: `tls://127.0.0.1:${tls.port}`,
      interval_sec: 15,
      insecure_skip_verify: true,
    },
    {
      guid: 'demo-https',
      name: 'Intranet portal (HTTPS)',
      url: `${https.url}/`,
      interval_sec: 10,
      insecure_skip_verify: true,
    },
    {
      guid: privateGuid,
      name: 'Payroll service (private)',
      url: `${http.url}/intranet`,
      interval_sec: 10,
      privateDefinition: true,
    },
  ];
  const privateDefinitions = {
    checks: [
      {
        guid: privateGuid,
        url: `${http.url}/intranet`,
        match_string: 'intranet ok',
        headers: { Authorization: 'Bearer demo-secret-token' },
      },
    ],
  };
  return {
    checks,
    privateDefinitions,
    async close() {
      await Promise.all([http.close(), https.close(), tcp.close(), tls.close()]);
    },
  };
}
