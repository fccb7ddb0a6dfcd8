// Issue 24 §6 on the wire: a tls check's sample and match subject read as the server's own agent
// writes them, so a match string written for the fleet passes here too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import { daysFromNow, makeCa, makeLeaf, startTlsTarget, type KeyPair, type SocketTarget } from '../../targets/index.ts';
import { definition } from './definition.ts';

let ca: KeyPair;
let target: SocketTarget;
beforeAll(async () => {
  ca = await makeCa('', [
    { name: 'countryName', value: 'US' },
    { name: 'organizationName', value: 'Office Trust' },
    { name: 'commonName', value: 'Office CA' },
  ]);
  const leaf = await makeLeaf({
    ca,
    subject: [
      { name: 'countryName', value: 'DE' },
      { name: 'organizationName', value: 'Acme' },
      { name: 'commonName', value: 'localhost' },
    ],
    notAfter: daysFromNow(40.5),
  });
  target = await startTlsTarget(leaf);
});
afterAll(async () => {
  await target.close();
});

const probe = (fields: Partial<CheckDefinition> = {}) =>
  runProbe(definition({ url: `tls://127.0.0.1:${target.port}`, ...fields }), { ca: [ca.cert] });

describe('tls certificate summary', () => {
  it('is subject=<DN>; issuer=<DN>; notAfter=<RFC 3339 UTC>; daysRemaining=<N>', async () => {
    const out = await probe();
    expect(out).toMatchObject({ success: true, error: '' });
    expect(out.responseSample).toMatch(
      /^subject=CN=localhost,O=Acme,C=DE; issuer=CN=Office CA,O=Office Trust,C=US; notAfter=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; daysRemaining=40$/,
    );
    expect(out.certificate).toMatchObject({
      subject: 'CN=localhost,O=Acme,C=DE',
      issuer: 'CN=Office CA,O=Office Trust,C=US',
    });
  });

  it.each(['subject=CN=localhost,O=Acme', 'issuer=CN=Office CA,O=Office Trust,C=US', 'daysRemaining=40'])(
    'a match string written for the fleet matches: %s',
    async (match) => {
      expect(await probe({ match_string: match })).toMatchObject({ success: true, error: '' });
    },
  );
});
