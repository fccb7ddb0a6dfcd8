// Certificates generated at test time (nothing checked in to expire): a CA and leaves signed by
// it, self-signed leaves, and leaves with chosen validity or names. EC keys keep generation fast.
import { generate } from 'selfsigned';

export interface KeyPair {
  /** PEM certificate. */
  cert: string;
  /** PEM private key. */
  key: string;
}

const dayMs = 24 * 60 * 60 * 1000;

/** `now` shifted by a number of days (fractions allowed), for validity windows. */
export const daysFromNow = (days: number, now = Date.now()): Date => new Date(now + days * dayMs);

/** One attribute of a subject, as selfsigned takes it: `{ name: 'commonName', value }`, `{ shortName: 'OU', value }`. */
export interface NameAttribute {
  name?: string;
  shortName?: string;
  value: string;
}

export async function makeCa(commonName = 'Test CA', subject?: NameAttribute[]): Promise<KeyPair> {
  const pems = await generate(subject ?? [{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: daysFromNow(-1),
    notAfterDate: daysFromNow(3650),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

export interface LeafOptions {
  commonName?: string;
  /** The whole subject, in certificate order (replaces commonName). */
  subject?: NameAttribute[];
  /** DNS names and IP addresses the certificate is valid for. */
  names?: string[];
  notBefore?: Date;
  notAfter?: Date;
  /** Signing CA; absent means self-signed. */
  ca?: KeyPair;
}

const ipLiteral = /^[\d.]+$|:/;

/** A server certificate, by default for localhost and 127.0.0.1, valid for a year. */
export async function makeLeaf(options: LeafOptions = {}): Promise<KeyPair> {
  const commonName = options.commonName ?? 'localhost';
  const names = options.names ?? ['localhost', '127.0.0.1'];
  const pems = await generate(options.subject ?? [{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: options.notBefore ?? daysFromNow(-1),
    notAfterDate: options.notAfter ?? daysFromNow(365),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: names.map((n) => (ipLiteral.test(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })),
      },
    ],
    ...(options.ca === undefined ? {} : { ca: { key: options.ca.key, cert: options.ca.cert } }),
  });
  return { cert: pems.cert, key: pems.private };
}
