// https against loopback servers with certificates generated here: trust, expiry, names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { ProbeContext } from '../../../src-main/agent/probes/types.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import {
  daysFromNow,
  makeCa,
  makeLeaf,
  startHttpTarget,
  startTcpTarget,
  type HttpTarget,
  type KeyPair,
} from '../../targets/index.ts';
import { definition } from './definition.ts';

let ca: KeyPair;
const targets: Record<string, HttpTarget> = {};
const serve = async (name: string, pair: KeyPair): Promise<void> => {
  targets[name] = await startHttpTarget({ '/': { body: 'secure' } }, { tls: pair });
};
const url = (name: string, host = '127.0.0.1'): string => `https://${host}:${targets[name]?.port ?? 0}/`;

beforeAll(async () => {
  ca = await makeCa();
  await Promise.all([
    serve('good', await makeLeaf({ ca })),
    serve('selfSigned', await makeLeaf()),
    serve('expired', await makeLeaf({ ca, notBefore: daysFromNow(-30), notAfter: daysFromNow(-1) })),
    // 3 days and an hour: three whole days left for the whole test run.
    serve('expiring', await makeLeaf({ ca, notAfter: daysFromNow(3 + 1 / 24) })),
    serve('otherName', await makeLeaf({ ca, commonName: 'other.test', names: ['other.test'] })),
  ]);
});
afterAll(async () => {
  await Promise.all(Object.values(targets).map((t) => t.close()));
});

const trusted = (): ProbeContext => ({ ca: [ca.cert] });
const probe = (name: string, fields: Partial<CheckDefinition> = {}, ctx: ProbeContext = trusted(), host?: string) =>
  runProbe(definition({ url: url(name, host), ...fields }), ctx);

describe('https probe', () => {
  it('trusted certificate: passes, with certificate facts and TLS timing', async () => {
    const out = await probe('good');
    expect(out).toMatchObject({ success: true, httpStatus: 200, responseSample: 'secure' });
    expect(out.certificate).toMatchObject({ subject: 'CN=localhost', issuer: 'CN=Test CA' });
    expect(out.certificate?.daysLeft).toBeGreaterThanOrEqual(363);
    expect(out.certificate?.validTo).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(out.timings?.tlsMs).toBeGreaterThanOrEqual(0);
  });

  it('connects by host name with SNI', async () => {
    expect(await probe('good', {}, trusted(), 'localhost')).toMatchObject({ success: true });
  });

  it('every run does a full handshake on a new connection, though the runs share one TLS context', async () => {
    const target = targets.good;
    if (target === undefined) throw new Error('no target');
    const before = target.connections();
    // One list for all runs, as the agent passes its settings: one TLS context (base/trusted-roots.ts).
    const shared = trusted();
    for (let i = 0; i < 3; i++) await probe('good', {}, shared);
    expect(target.connections() - before).toBe(3);
    expect(target.resumedSessions()).toBe(0);
  });

  it.each([
    { name: 'unknown issuer', target: 'good', trustCa: false, error: 'TLS certificate not trusted (unknown issuer)' },
    { name: 'self-signed', target: 'selfSigned', trustCa: true, error: 'TLS certificate is self-signed' },
    { name: 'wrong host name', target: 'otherName', trustCa: true, error: 'TLS certificate does not match 127.0.0.1' },
  ])('refuses: $name', async ({ target, trustCa, error }) => {
    const out = await probe(target, {}, trustCa ? trusted() : {});
    expect(out).toMatchObject({ success: false, httpStatus: 0, error });
    // The handshake completed: the target answered.
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it('refuses an expired certificate, naming the day', async () => {
    const out = await probe('expired');
    expect(out.success).toBe(false);
    expect(out.error).toBe(`TLS certificate expired on ${daysFromNow(-1).toISOString().slice(0, 10)}`);
    expect(out.certificate?.daysLeft).toBeLessThan(0);
  });

  it.each([
    { name: 'self-signed', target: 'selfSigned' },
    { name: 'expired', target: 'expired' },
    { name: 'wrong host name', target: 'otherName' },
    { name: 'unknown issuer', target: 'good' },
  ])('insecure_skip_verify accepts: $name', async ({ target }) => {
    expect(await probe(target, { insecure_skip_verify: true }, {})).toMatchObject({ success: true, httpStatus: 200 });
  });

  it('an expired certificate still fails cert_expiry_warn_days when verification is skipped', async () => {
    const out = await probe('expired', { insecure_skip_verify: true, cert_expiry_warn_days: 7 }, {});
    expect(out.error).toMatch(/^TLS certificate expired on \d{4}-\d\d-\d\d, warning at 7$/);
  });

  it.each([
    {
      name: 'within the warning',
      warn: 7,
      error: `TLS certificate expires in 3 days (${daysFromNow(3 + 1 / 24)
        .toISOString()
        .slice(0, 10)}), warning at 7`,
    },
    {
      name: 'exactly the warning',
      warn: 3,
      error: `TLS certificate expires in 3 days (${daysFromNow(3 + 1 / 24)
        .toISOString()
        .slice(0, 10)}), warning at 3`,
    },
    { name: 'outside the warning', warn: 2, error: '' },
    { name: 'rule off', warn: 0, error: '' },
  ])('cert_expiry_warn_days: $name', async ({ warn, error }) => {
    const out = await probe('expiring', { cert_expiry_warn_days: warn });
    expect(out).toMatchObject({ success: error === '', httpStatus: 200, error });
    expect(out.certificate?.daysLeft).toBe(3);
  });

  it('days left follow the injected wall clock', async () => {
    const later = (): Date => daysFromNow(360);
    const out = await probe('good', { cert_expiry_warn_days: 30 }, { ...trusted(), wallClock: later });
    expect(out.success).toBe(false);
    expect(out.error).toMatch(/^TLS certificate expires in [45] days \(\d{4}-\d\d-\d\d\), warning at 30$/);
  });

  it('https to a plain http port fails the handshake', async () => {
    const plain = await startHttpTarget();
    try {
      const out = await runProbe(definition({ url: `https://127.0.0.1:${plain.port}/` }));
      expect(out).toMatchObject({
        success: false,
        httpStatus: 0,
        answered: true,
        error: 'TLS handshake failed: the target did not answer with TLS (a plain TCP port?)',
      });
      expect(out.latencyMs).toBeGreaterThanOrEqual(1); // the plain port answered
    } finally {
      await plain.close();
    }
  });

  it('https to a port that hangs up mid-handshake', async () => {
    const rude = await startTcpTarget({ hangUp: true });
    try {
      const out = await runProbe(definition({ url: `https://127.0.0.1:${rude.port}/` }));
      expect(out).toMatchObject({
        success: false,
        latencyMs: 0,
        error: 'TLS handshake failed: the target closed the connection',
      });
    } finally {
      await rude.close();
    }
  });
});

// Issue 10 §4: a 301 from the https URL to http skipped the expiry judgement, so a check with a
// certificate 3 days from expiry and a 7-day warning passed.
describe('cert_expiry_warn_days over a redirect chain', () => {
  const chain: HttpTarget[] = [];
  afterAll(async () => {
    await Promise.all(chain.map((t) => t.close()));
  });
  const start = async (...args: Parameters<typeof startHttpTarget>): Promise<HttpTarget> => {
    const t = await startHttpTarget(...args);
    chain.push(t);
    return t;
  };

  it.each([
    { name: 'https (expiring) → http', first: 'expiring', second: 'plain', warn: 7, success: false },
    { name: 'https (good) → https (expiring)', first: 'good', second: 'expiring', warn: 7, success: false },
    { name: 'http → https (expiring)', first: 'plain', second: 'expiring', warn: 7, success: false },
    {
      name: 'https (expiring) → http, warning not reached',
      first: 'expiring',
      second: 'plain',
      warn: 2,
      success: true,
    },
    { name: 'https (good) → http', first: 'good', second: 'plain', warn: 7, success: true },
  ])('$name', async ({ first, second, warn, success }) => {
    const leaf = async (kind: string): Promise<KeyPair | undefined> =>
      kind === 'plain'
        ? undefined
        : makeLeaf({ ca, ...(kind === 'expiring' ? { notAfter: daysFromNow(3 + 1 / 24) } : {}) });
    const [firstTls, secondTls] = await Promise.all([leaf(first), leaf(second)]);
    const end = await start({ '/end': { body: 'landed' } }, secondTls === undefined ? {} : { tls: secondTls });
    const hop = await start(
      { '/': { status: 301, redirect: `${end.url}/end` } },
      firstTls === undefined ? {} : { tls: firstTls },
    );
    const out = await runProbe(definition({ url: `${hop.url}/`, cert_expiry_warn_days: warn }), trusted());
    expect(out).toMatchObject({ success, httpStatus: 200, decidedBy: success ? 'all-rules' : 'certificate' });
    if (!success) {
      expect(out.error).toMatch(/^TLS certificate expires in 3 days \(\d{4}-\d\d-\d\d\), warning at 7$/);
      expect(out.certificate?.daysLeft).toBe(3);
    }
  });
});
