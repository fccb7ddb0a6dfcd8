// `answered` and latency (issue 10 §1 and §4): whether the target sent anything back decides
// what a failure while offline becomes, and latency is >= 1 whenever bytes came back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { ProbeContext } from '../../../src-main/agent/probes/types.ts';
import {
  closedPort,
  startHttpTarget,
  startSilentPort,
  startTcpTarget,
  type HttpTarget,
  type SilentPort,
  type SocketTarget,
} from '../../targets/index.ts';
import { definition } from './definition.ts';

let silent: SilentPort;
let mute: SocketTarget;
let hangUp: SocketTarget;
let ssh: SocketTarget;
let web: HttpTarget;
let refusedPort: number;
beforeAll(async () => {
  [silent, mute, hangUp, ssh, web, refusedPort] = await Promise.all([
    startSilentPort(),
    startTcpTarget(),
    startTcpTarget({ hangUp: true }),
    startTcpTarget({ banner: 'SSH-2.0-OpenSSH_9.6\r\n' }),
    startHttpTarget({ '/': { body: 'plain' } }),
    closedPort(),
  ]);
});
afterAll(async () => {
  await Promise.all([silent.close(), mute.close(), hangUp.close(), ssh.close(), web.close()]);
});

const port = {
  silent: () => silent.port,
  mute: () => mute.port,
  hangUp: () => hangUp.port,
  ssh: () => ssh.port,
  web: () => web.port,
  refused: () => refusedPort,
};
type Target = keyof typeof port;
const url = (scheme: string, target: Target): string =>
  `${scheme}://127.0.0.1:${port[target]()}${scheme.startsWith('http') ? '/' : ''}`;

describe('answered: anything back from the target, a refusal included', () => {
  it.each([
    { scheme: 'tcp', target: 'refused', answered: true, latency: 'zero', decidedBy: 'connection' },
    { scheme: 'tls', target: 'refused', answered: true, latency: 'zero', decidedBy: 'connection' },
    { scheme: 'http', target: 'refused', answered: true, latency: 'zero', decidedBy: 'connection' },
    { scheme: 'https', target: 'refused', answered: true, latency: 'zero', decidedBy: 'connection' },
    { scheme: 'tcp', target: 'silent', answered: false, latency: 'zero', decidedBy: 'timeout' },
    { scheme: 'tls', target: 'silent', answered: false, latency: 'zero', decidedBy: 'timeout' },
    { scheme: 'http', target: 'silent', answered: false, latency: 'zero', decidedBy: 'timeout' },
    { scheme: 'https', target: 'silent', answered: false, latency: 'zero', decidedBy: 'timeout' },
    // A completed connect is an answer, even when the service then hangs or hangs up.
    { scheme: 'tls', target: 'mute', answered: true, latency: 'zero', decidedBy: 'timeout' },
    { scheme: 'http', target: 'mute', answered: true, latency: 'zero', decidedBy: 'timeout' },
    { scheme: 'tls', target: 'hangUp', answered: true, latency: 'zero', decidedBy: 'connection' },
    { scheme: 'http', target: 'hangUp', answered: true, latency: 'zero', decidedBy: 'connection' },
    // Issue 10 §4: TLS against a plain port that answered used to report latency 0.
    { scheme: 'tls', target: 'ssh', answered: true, latency: 'positive', decidedBy: 'connection' },
    { scheme: 'https', target: 'ssh', answered: true, latency: 'positive', decidedBy: 'connection' },
    { scheme: 'tls', target: 'web', answered: true, latency: 'positive', decidedBy: 'connection' },
    { scheme: 'https', target: 'web', answered: true, latency: 'positive', decidedBy: 'connection' },
  ] as const)('$scheme to $target', async ({ scheme, target, answered, latency, decidedBy }) => {
    const out = await runProbe(definition({ url: url(scheme, target), timeout_sec: 1 }));
    expect(out).toMatchObject({ success: false, answered, decidedBy });
    if (latency === 'zero') expect(out.latencyMs).toBe(0);
    else expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it('a plain HTTP port answering a TLS handshake is named as such', async () => {
    const out = await runProbe(definition({ url: url('tls', 'web') }));
    expect(out.error).toBe('TLS handshake failed: the target did not answer with TLS (a plain TCP port?)');
  });

  it.each([
    { name: 'no such name is an answer', code: 'ENOTFOUND', answered: true, error: 'DNS lookup failed for shop.test' },
    {
      name: 'a lookup with no answer is not',
      code: 'EAI_AGAIN',
      answered: false,
      error: 'DNS lookup failed for shop.test (temporary DNS failure)',
    },
  ])('DNS: $name', async ({ code, answered, error }) => {
    const ctx: ProbeContext = { resolve: () => Promise.reject(Object.assign(new Error('lookup failed'), { code })) };
    for (const scheme of ['tcp', 'tls', 'http', 'https']) {
      const out = await runProbe(definition({ url: `${scheme}://shop.test:8443/` }), ctx);
      expect(out).toMatchObject({ success: false, answered, error, latencyMs: 0 });
    }
  });

  it('a definition that cannot run never answered', async () => {
    expect(await runProbe(definition({ url: 'tcp://127.0.0.1' }))).toMatchObject({
      answered: false,
      decidedBy: 'definition',
    });
  });
});
