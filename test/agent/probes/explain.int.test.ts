// explain(): the verdict, the rule that decided it, timings and certificate in plain words
// (issue 13 §3 and §6), from real runs against loopback targets and from hand-made outcomes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explain, runProbe } from '../../../src-main/agent/probes/index.ts';
import { daysFromNow, makeCa, makeLeaf, startHttpTarget, type HttpTarget, type KeyPair } from '../../targets/index.ts';
import { definition } from './definition.ts';

describe('explain a real https run', () => {
  let ca: KeyPair;
  let target: HttpTarget;
  beforeAll(async () => {
    ca = await makeCa('Office CA');
    target = await startHttpTarget(
      { '/': { body: 'Welcome' } },
      { tls: await makeLeaf({ ca, notAfter: daysFromNow(30.5) }) },
    );
  });
  afterAll(async () => {
    await target.close();
  });

  it('shows the deciding rule, every phase and the certificate', async () => {
    const def = definition({
      url: `https://localhost:${target.port}/`,
      match_string: 'Welcome',
      cert_expiry_warn_days: 45,
    });
    const out = explain(await runProbe(def, { ca: [ca.cert] }), def);
    expect(out[0]).toBe(`FAIL  https://localhost:${target.port}/`);
    expect(out[1]).toMatch(
      /^verdict: fail — decided by the certificate: TLS certificate expires in 30 days \(\d{4}-\d\d-\d\d\), warning at 45$/,
    );
    expect(out).toContain('status: 200');
    expect(out.find((l) => l.startsWith('timings:'))).toMatch(
      /^timings: DNS \d+ ms · connect \d+ ms · TLS \d+ ms · first byte \d+ ms · total \d+ ms$/,
    );
    expect(out.find((l) => l.startsWith('certificate:'))).toMatch(
      /^certificate: CN=localhost; issuer CN=Office CA; expires in 30 days \(/,
    );
  });
});
