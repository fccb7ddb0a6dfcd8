// Peer certificate facts shared by the https and tls probes, and the verification step.
// Sockets connect with rejectUnauthorized off and are verified here instead, so a rejected
// certificate can still be described ("expired on 2026-11-24"), which Node's own rejection
// (socket destroyed before the certificate can be read) does not allow.
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { CertificateInfo } from './types.ts';

const dayMs = 24 * 60 * 60 * 1000;

/** Facts about the certificate the peer presented, or undefined when it sent none. */
export function peerCertificate(socket: TLSSocket, wallClock: () => Date): CertificateInfo | undefined {
  const raw = socket.getPeerCertificate().raw as Buffer | undefined;
  if (raw === undefined || raw.length === 0) return undefined;
  const x509 = new X509Certificate(raw);
  const validTo = x509.validToDate;
  return {
    subject: x509.subject.split('\n').join(', '),
    issuer: x509.issuer.split('\n').join(', '),
    validTo: validTo.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    daysLeft: Math.floor((validTo.getTime() - wallClock().getTime()) / dayMs),
  };
}

/** One line a user can read and a tls check's match_string is matched against. */
export function certificateSummary(cert: CertificateInfo): string {
  return `subject ${cert.subject}; issuer ${cert.issuer}; expires ${cert.validTo}`;
}

/** A certificate the agent refused, with the certificate so the reason can name dates. */
export class CertificateRejectedError extends Error {
  readonly code: string;
  readonly host: string;
  readonly certificate: CertificateInfo | undefined;

  constructor(code: string, host: string, certificate: CertificateInfo | undefined) {
    super(`certificate rejected: ${code}`);
    this.name = 'CertificateRejectedError';
    this.code = code;
    this.host = host;
    this.certificate = certificate;
  }
}

/**
 * The verification verdict Node already computed during the handshake (chain against the
 * trusted CAs, then host name), turned into an error unless the check skips verification.
 */
export function rejection(
  socket: TLSSocket,
  host: string,
  insecure: boolean,
  certificate: CertificateInfo | undefined,
): CertificateRejectedError | undefined {
  if (insecure || socket.authorized) return undefined;
  // Typed as Error, but Node stores the OpenSSL code string (e.g. "CERT_HAS_EXPIRED").
  const raw: unknown = socket.authorizationError;
  const code = typeof raw === 'string' ? raw : raw instanceof Error ? raw.message : 'UNKNOWN';
  return new CertificateRejectedError(code, host, certificate);
}
