// Peer certificate facts shared by the https and tls probes, and the verification step.
// Sockets connect with rejectUnauthorized off and are verified here instead, so a rejected
// certificate can still be described ("expired on 2026-11-24"), which Node's own rejection
// (socket destroyed before the certificate can be read) does not allow.
import type { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { certificateNames } from './distinguished-name.ts';
import type { CertificateInfo } from './types.ts';

const dayMs = 24 * 60 * 60 * 1000;

/** Facts about the certificate the peer presented, or undefined when it sent none. */
export function peerCertificate(socket: TLSSocket, wallClock: () => Date): CertificateInfo | undefined {
  // The certificate as OpenSSL holds it: getPeerCertificate() copies out every field and computes
  // its fingerprints, only for the DER to be parsed again here (docs/performance.md "TLS contexts").
  const x509 = socket.getPeerX509Certificate();
  if (x509 === undefined) return undefined;
  const validTo = x509.validToDate;
  return {
    ...namesOf(x509),
    validTo: validTo.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    daysLeft: Math.floor((validTo.getTime() - wallClock().getTime()) / dayMs),
  };
}

/** Subject and issuer as the fleet writes them; Node's own form if the DER cannot be walked. */
function namesOf(x509: X509Certificate): { subject: string; issuer: string } {
  try {
    return certificateNames(x509.raw);
  } catch {
    return { subject: x509.subject.split('\n').join(','), issuer: x509.issuer.split('\n').join(',') };
  }
}

/**
 * The line a tls check reports as its sample and matches match_string against, exactly as the
 * server's own agent writes it (issue 24 §6), so one match string means the same on both agents:
 * `subject=<DN>; issuer=<DN>; notAfter=<RFC 3339 UTC>; daysRemaining=<N>`. daysRemaining is that
 * agent's count, whole days truncated toward zero (a certificate that expired 5 hours ago says
 * 0), where `daysLeft` rounds down for the local wording ("expired 1 day ago").
 */
export function certificateSummary(cert: CertificateInfo, now: Date): string {
  const daysRemaining = Math.trunc((Date.parse(cert.validTo) - now.getTime()) / dayMs);
  return `subject=${cert.subject}; issuer=${cert.issuer}; notAfter=${cert.validTo}; daysRemaining=${daysRemaining}`;
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
