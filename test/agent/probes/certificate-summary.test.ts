// Issue 24 §6: the tls certificate summary reads exactly as the server's own agent writes it
// (Go's pkix.Name.String() for the names, RFC 3339 UTC for notAfter, whole days truncated toward
// zero), so a match string written for the fleet matches here too. Certificates are generated in
// the test; nothing opens a socket.
import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { certificateSummary } from '../../../src-main/agent/probes/certificate.ts';
import { certificateNames } from '../../../src-main/agent/probes/distinguished-name.ts';
import { makeCa, makeLeaf, type KeyPair, type NameAttribute } from '../../targets/index.ts';

const notAfter = new Date('2027-03-01T12:00:00Z');
const names = async (subject: NameAttribute[], ca?: KeyPair) =>
  certificateNames(new X509Certificate((await makeLeaf({ subject, notAfter, ...(ca ? { ca } : {}) })).cert).raw);

let ca: KeyPair;
beforeAll(async () => {
  // Written country first, as most CAs are: Go still writes it most specific first.
  ca = await makeCa('', [
    { name: 'countryName', value: 'US' },
    { name: 'organizationName', value: 'Office Trust' },
    { name: 'commonName', value: 'Office CA R1' },
  ]);
});

describe('distinguished names as the fleet writes them', () => {
  it.each<{ title: string; subject: NameAttribute[]; written: string }>([
    { title: 'one CN', subject: [{ name: 'commonName', value: 'shop.test' }], written: 'CN=shop.test' },
    {
      title: 'most specific first, whatever the certificate order',
      subject: [
        { name: 'commonName', value: 'shop.test' },
        { name: 'organizationName', value: 'Acme' },
        { name: 'countryName', value: 'DE' },
      ],
      written: 'CN=shop.test,O=Acme,C=DE',
    },
    {
      title: 'the fixed order, repeated attributes joined with +, RFC 2253 escapes',
      subject: [
        { name: 'countryName', value: 'US' },
        { shortName: 'ST', value: 'New York' },
        { name: 'localityName', value: 'Albany' },
        { name: 'organizationName', value: 'Acme\\, Inc.' },
        { shortName: 'OU', value: 'Ops' },
        { shortName: 'OU', value: 'Web' },
        { name: 'commonName', value: 'shop.test' },
      ],
      written: 'CN=shop.test,OU=Ops+OU=Web,O=Acme\\, Inc.,L=Albany,ST=New York,C=US',
    },
    {
      title: 'an attribute Go has no name for goes last, as OID=#<DER hex>',
      subject: [
        { name: 'commonName', value: 'shop.test' },
        { shortName: 'E', value: 'admin@shop.test' },
      ],
      written: 'CN=shop.test,1.2.840.113549.1.9.1=#0c0f61646d696e4073686f702e74657374',
    },
  ])('$title', async ({ subject, written }) => {
    expect((await names(subject)).subject).toBe(written);
  });

  it('the issuer is written the same way', async () => {
    const out = await names([{ name: 'commonName', value: 'shop.test' }], ca);
    expect(out).toEqual({ subject: 'CN=shop.test', issuer: 'CN=Office CA R1,O=Office Trust,C=US' });
  });
});

describe('certificateSummary', () => {
  const cert = { subject: 'CN=shop.test,O=Acme', issuer: 'CN=Office CA', validTo: '2027-03-01T12:00:00Z', daysLeft: 0 };

  it.each([
    { now: '2027-02-01T00:00:00Z', days: 28 },
    { now: '2027-03-01T00:00:00Z', days: 0 },
    // Expired 5 hours ago: the fleet's agent truncates toward zero.
    { now: '2027-03-01T17:00:00Z', days: 0 },
    { now: '2027-03-03T00:00:00Z', days: -1 },
  ])('at $now: daysRemaining=$days', ({ now, days }) => {
    expect(certificateSummary(cert, new Date(now))).toBe(
      `subject=CN=shop.test,O=Acme; issuer=CN=Office CA; notAfter=2027-03-01T12:00:00Z; daysRemaining=${days}`,
    );
  });
});
