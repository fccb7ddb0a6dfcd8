// Nothing of a private definition, of any length, ever reaches the server: not in an error, not
// in a sample, not in any request the reference server received.
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckDefinition } from '../../../../src-main/agent/wire/schemas.ts';
import { enrolledAgent, type Harness } from '../../../support/agent-harness.ts';
import { runPrivateChecks } from './run-private-checks.ts';
import { makeCa, makeLeaf, startHttpTarget, startTcpTarget, startTlsTarget } from '../../../targets/index.ts';

/** Every string value of a definition, and every part of its URL. */
function valuesOf(def: CheckDefinition & { guid: string }): string[] {
  const url = new URL(def.url);
  const values = [
    def.url,
    def.match_string,
    def.post_data ?? '',
    ...Object.entries(def.headers ?? {}).flat(),
    url.host,
    url.port,
    url.pathname,
    url.search,
    url.username,
    url.password,
  ];
  return values.filter((v) => v !== '' && v !== '/');
}

describe('private definitions never leave the machine', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('no value of a private definition, of any length, appears in any request the server received', async () => {
    const secretPath = '/very-secret-path-4711';
    const http = await startHttpTarget({ [secretPath]: { status: 200, body: 'hello internal-body-text' } });
    const tcp = await startTcpTarget({ banner: 'SSH-2.0-internal-banner-7731\r\n' });
    const ca = await makeCa();
    const tls = await startTlsTarget(await makeLeaf({ ca, commonName: 'intranet-cn-5555.test', names: ['127.0.0.1'] }));
    const port = new URL(http.url).port;
    h = await enrolledAgent({ agent: { probeContext: { ca: [ca.cert] } } });
    const checks: (CheckDefinition & { guid: string })[] = [
      {
        guid: 'priv-match',
        url: `http://admin:pw-hunter2@127.0.0.1:${port}${secretPath}?token=tok-998877`,
        match_string: 'needle-never-found',
        headers: { 'X-Secret': 'header-secret-123', 'X-Q': '%~' },
        post_data: 'post-secret-456',
      },
      { guid: 'priv-redirect', url: `http://127.0.0.1:${port}/nowhere-secret-route`, match_string: '' },
      // Short values cannot be masked inside text: the error that holds one is withheld. (Made of
      // punctuation, so that they cannot turn up by chance inside a random API key.)
      { guid: 'priv-banner', url: tcp.url, match_string: '^!' },
      { guid: 'priv-cert', url: tls.url, match_string: 'no-such-subject-31' },
    ];
    await runPrivateChecks(h, checks, 500);
    const stored = h.server.results(h.monitorId);
    for (const c of checks) expect(stored.find((r) => r.checkGuid === c.guid)?.success).toBe(false);
    const everything = h.server
      .requests()
      .map((r) => `${r.path}?${r.query} ${JSON.stringify(r.headers)} ${r.body}`)
      .join('\n');
    const values = [...checks.flatMap(valuesOf), 'internal-banner-7731', 'intranet-cn-5555'];
    for (const value of values) expect({ value, sent: everything.includes(value) }).toEqual({ value, sent: false });
    // The local history keeps the real reason for the user.
    expect(h.agent.checkHistory('priv-match', 1)[0]?.error).toContain('needle-never-found');
    expect(http.requests.length).toBeGreaterThan(0);
    await Promise.all([http.close(), tcp.close(), tls.close()]);
  });
});
