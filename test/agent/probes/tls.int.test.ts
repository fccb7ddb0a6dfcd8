// The tls probe: bare handshakes against loopback TLS and plain TCP services.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { ProbeContext } from '../../../src-main/agent/probes/types.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import {
  closedPort,
  daysFromNow,
  makeCa,
  makeLeaf,
  startTcpTarget,
  startTlsTarget,
  type KeyPair,
  type SocketTarget,
} from '../../targets/index.ts';
import { leftBehind } from '../../support/left-behind.ts';
import { definition } from './definition.ts';

let ca: KeyPair;
const targets: Record<string, SocketTarget> = {};
const port = (name: string): number => targets[name]?.port ?? 0;

beforeAll(async () => {
  ca = await makeCa();
  const [good, selfSigned, expired, expiring] = await Promise.all([
    makeLeaf({ ca }),
    makeLeaf(),
    makeLeaf({ ca, notBefore: daysFromNow(-30), notAfter: daysFromNow(-1) }),
    makeLeaf({ ca, notAfter: daysFromNow(3 + 1 / 24) }),
  ]);
  targets.good = await startTlsTarget(good);
  targets.selfSigned = await startTlsTarget(selfSigned);
  targets.expired = await startTlsTarget(expired);
  targets.expiring = await startTlsTarget(expiring);
  targets.plainBanner = await startTcpTarget({ banner: 'SSH-2.0-OpenSSH_9.6\r\n' });
  targets.plainSilent = await startTcpTarget();
});
afterAll(async () => {
  await Promise.all(Object.values(targets).map((t) => t.close()));
});

const trusted = (): ProbeContext => ({ ca: [ca.cert] });
const probe = (
  name: string,
  fields: Partial<CheckDefinition> = {},
  ctx: ProbeContext = trusted(),
  host = '127.0.0.1',
) => runProbe(definition({ url: `tls://${host}:${port(name)}`, ...fields }), ctx);

describe('tls probe', () => {
  it('handshake passes with a certificate summary as sample', async () => {
    const out = await probe('good');
    expect(out).toMatchObject({ success: true, httpStatus: 0, error: '' });
    expect(out.responseSample).toMatch(
      /^subject=CN=localhost; issuer=CN=Test CA; notAfter=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; daysRemaining=36[45]$/,
    );
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
    expect(out.timings?.tlsMs).toBeGreaterThanOrEqual(0);
    expect(out.certificate?.subject).toBe('CN=localhost');
  });

  it('sends SNI for a host name, none for an IP literal', async () => {
    // A target of its own: handshakes of other tests may still be landing on the shared ones.
    const target = await startTlsTarget(await makeLeaf({ ca }));
    try {
      // The server finishes its side after the client; wait for it to record the handshake.
      const handshake = async (host: string): Promise<string | false | undefined> => {
        const before = target.servernames.length;
        const out = await runProbe(definition({ url: `tls://${host}:${target.port}` }), trusted());
        expect(out.success).toBe(true);
        await vi.waitFor(() => expect(target.servernames.length).toBe(before + 1));
        return target.servernames.at(-1);
      };
      expect(await handshake('localhost')).toBe('localhost');
      expect(await handshake('127.0.0.1')).toBe(false);
    } finally {
      await target.close();
    }
  });

  it.each([
    { name: 'match on the subject', fields: { match_string: 'CN=localhost' }, error: '' },
    { name: 'match on the issuer', fields: { match_string: 'issuer=CN=Test CA' }, error: '' },
    {
      name: 'no match',
      fields: { match_string: 'CN=other' },
      error: 'certificate summary does not contain "CN=other"',
    },
    {
      name: 'not_contains',
      fields: { match_string: 'Test CA', match_mode: 'not_contains' },
      error: 'certificate summary contains "Test CA"',
    },
  ])('match_string: $name', async ({ fields, error }) => {
    expect(await probe('good', fields)).toMatchObject({ success: error === '', error });
  });

  it.each([
    {
      name: 'unknown issuer',
      target: 'good',
      trustCa: false,
      error: /^TLS certificate not trusted \(unknown issuer\)$/,
    },
    { name: 'self-signed', target: 'selfSigned', trustCa: true, error: /^TLS certificate is self-signed$/ },
    { name: 'expired', target: 'expired', trustCa: true, error: /^TLS certificate expired on \d{4}-\d\d-\d\d$/ },
  ])('refuses: $name, with the certificate still summarised', async ({ target, trustCa, error }) => {
    const out = await probe(target, {}, trustCa ? trusted() : {});
    expect(out.success).toBe(false);
    expect(out.error).toMatch(error);
    expect(out.responseSample).toMatch(/^subject=/);
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it('refuses a certificate for another host name', async () => {
    const wrong = await startTlsTarget(await makeLeaf({ ca, commonName: 'other.test', names: ['other.test'] }));
    try {
      const refused = await runProbe(definition({ url: wrong.url }), trusted());
      expect(refused).toMatchObject({ success: false, error: 'TLS certificate does not match 127.0.0.1' });
    } finally {
      await wrong.close();
    }
  });

  it('insecure_skip_verify accepts a self-signed certificate', async () => {
    expect(await probe('selfSigned', { insecure_skip_verify: true }, {})).toMatchObject({ success: true });
  });

  it.each([
    { name: 'within the warning', warn: 7, success: false },
    { name: 'outside the warning', warn: 2, success: true },
  ])('cert_expiry_warn_days: $name', async ({ warn, success }) => {
    const out = await probe('expiring', { cert_expiry_warn_days: warn });
    expect(out.success).toBe(success);
    if (!success) expect(out.error).toMatch(/^TLS certificate expires in 3 days \(\d{4}-\d\d-\d\d\), warning at 7$/);
  });

  it('a plain TCP service that talks first is not TLS, but it answered', async () => {
    const out = await probe('plainBanner', {}, {});
    expect(out).toMatchObject({
      success: false,
      answered: true,
      error: 'TLS handshake failed: the target did not answer with TLS (a plain TCP port?)',
    });
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it('a silent plain TCP service times out', async () => {
    const out = await probe('plainSilent', { timeout_sec: 1 }, {});
    expect(out).toMatchObject({ success: false, latencyMs: 0, error: 'timed out after 1 s' });
  });

  it.each([{ name: 'missing port', url: 'tls://127.0.0.1', error: 'tls url needs a port' }])(
    'invalid: $name',
    async ({ url, error }) => {
      expect(await runProbe(definition({ url }))).toMatchObject({ success: false, error, invalidDefinition: true });
    },
  );

  it('leaves nothing behind that wakes the agent later once the service has closed its side', async () => {
    // The close grace (destroy the socket if the peer never closes) was armed for 1 s and never
    // cleared, though the peer closed within a turn of the loop: a wake-up of its own each run.
    for (const name of ['good', 'selfSigned', 'plainBanner'])
      expect([name, await leftBehind(() => probe(name))]).toEqual([name, []]);
  });

  it('connection refused', async () => {
    const out = await runProbe(definition({ url: `tls://127.0.0.1:${await closedPort()}` }));
    expect(out).toMatchObject({ success: false, latencyMs: 0, error: 'connection refused' });
  });
});
