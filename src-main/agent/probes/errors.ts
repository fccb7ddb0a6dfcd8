// One place that turns Node's and OpenSSL's failures into short, specific reasons a user can
// act on. Probes never show raw error text when a code is known.
import { localFaultError } from '../base/local-fault.ts';
import { BodyDecodeError } from './body-decoding.ts';
import { CertificateRejectedError } from './certificate.ts';
import { probeDefaults } from './defaults.ts';
import { EgressBlockedError } from './egress.ts';
import { ProxyRefusedError, ProxyUnreachableError } from './proxy-tunnel.ts';
import type { DecidingRule } from './types.ts';

export const cancelledError = 'cancelled: the agent is stopping';
export const timedOut = (timeoutSec: number): string => `timed out after ${timeoutSec} s`;

const kib = (bytes: number): string => `${Math.round(bytes / 1024)} KiB`;

const untrusted = (why: string): string => `TLS certificate not trusted (${why})`;

const headersTooLarge = `response headers too large (over ${kib(probeDefaults.maxHeaderBytes)})`;
const closedEarly = 'connection closed by the target before a complete response';

const notTls = 'TLS handshake failed: the target did not answer with TLS (a plain TCP port?)';

/** Reasons by error code (Node errno, Node's HTTP parser, OpenSSL verify code). */
const byCode: Record<string, (host: string) => string> = {
  ECONNREFUSED: () => 'connection refused',
  ECONNRESET: () => 'connection reset',
  EPIPE: () => 'connection reset while sending the request',
  ENOTFOUND: (host) => `DNS lookup failed for ${host}`,
  EAI_AGAIN: (host) => `DNS lookup failed for ${host} (temporary DNS failure)`,
  EAI_NODATA: (host) => `DNS lookup failed for ${host} (no address)`,
  EHOSTUNREACH: () => 'host unreachable',
  ENETUNREACH: () => 'network unreachable',
  ETIMEDOUT: () => 'connect timed out',
  EMFILE: () => localFaultError('descriptors'),
  ENFILE: () => localFaultError('descriptors'),
  ENOMEM: () => localFaultError('memory'),
  ENOBUFS: () => localFaultError('buffers'),
  HPE_HEADER_OVERFLOW: () => headersTooLarge,
  CERT_NOT_YET_VALID: () => 'TLS certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: () => 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: () => untrusted('self-signed certificate in chain'),
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: () => untrusted('unknown issuer'),
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: () => untrusted('unknown issuer'),
  UNABLE_TO_GET_ISSUER_CERT: () => untrusted('unknown issuer'),
  CERT_REVOKED: () => 'TLS certificate revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: (host) => `TLS certificate does not match ${host}`,
  // A plain-text answer read as a TLS record header gives one of these.
  ERR_SSL_WRONG_VERSION_NUMBER: () => notTls,
  ERR_SSL_PACKET_LENGTH_TOO_LONG: () => notTls,
  ERR_SSL_HTTP_REQUEST: () => notTls,
};

interface CodedError {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  reason?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The error and everything it wraps (cause, AggregateError members), outermost first. */
function chain(err: unknown): CodedError[] {
  const out: CodedError[] = [];
  const queue: unknown[] = [err];
  while (queue.length > 0 && out.length < 10) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null) continue;
    const e = next as CodedError;
    out.push(e);
    queue.push(e.cause);
    if (Array.isArray(e.errors)) queue.push(...(e.errors as unknown[]));
  }
  return out;
}

/**
 * A short reason for a failed connection or request to `host`. Timeouts and cancellation are
 * decided by the caller from its own signals, not from the error, which may be a side effect.
 */
export function describeError(err: unknown, host: string): string {
  if (err instanceof CertificateRejectedError) return describeRejection(err);
  const errors = chain(err);
  const own = errors.find(
    (e) => e instanceof EgressBlockedError || e instanceof ProxyRefusedError || e instanceof BodyDecodeError,
  );
  if (own instanceof ProxyRefusedError) return describeProxyRefusal(own);
  const unreachable = errors.find((e) => e instanceof ProxyUnreachableError);
  if (unreachable instanceof ProxyUnreachableError) {
    return `proxy ${unreachable.proxy} could not be reached (${describeError(unreachable.cause, host)}): check the proxy setting`;
  }
  if (own instanceof Error) return own.message;
  for (const e of errors) {
    // Node reports a peer that hangs up mid-handshake as a plain ECONNRESET; only the message
    // says the handshake was under way.
    if (typeof e.message === 'string' && e.message.includes('before secure TLS connection')) {
      return 'TLS handshake failed: the target closed the connection';
    }
    const code = typeof e.code === 'string' ? e.code : '';
    // A connection that ended before the response (or its body) was complete, as Node's HTTP
    // client says it (the proxy's answer to CONNECT) and the probe's own reader after it
    // (http-response.ts); a reset from the peer says "read ECONNRESET".
    if (code === 'ECONNRESET' && (e.message === 'socket hang up' || e.message === 'aborted')) return closedEarly;
    const known = byCode[code];
    if (known !== undefined) return known(host);
    if (code.startsWith('HPE_') || e.name === 'HTTPParserError') {
      // Parser errors carry llhttp's own reason ("Expected HTTP/"). Where it lists the protocols
      // it could read ("Expected HTTP/, RTSP/ or ICE/"), only HTTP is one a probe reads.
      const reason = typeof e.reason === 'string' && e.reason !== '' ? e.reason : String(e.message);
      return `invalid HTTP response (${reason.replace(/^Expected HTTP\/, .*$/, 'Expected HTTP/')})`;
    }
    if (code.startsWith('ERR_INVALID_') || code.startsWith('ERR_HTTP_')) return `invalid request: ${String(e.message)}`;
    if (code.startsWith('ERR_SSL_') || code === 'EPROTO') {
      return `TLS handshake failed: ${typeof e.reason === 'string' ? e.reason : String(e.message)}`;
    }
  }
  const first = errors[0];
  if (first === undefined) return String(err);
  const code = typeof first.code === 'string' ? `${first.code}: ` : '';
  return `${code}${String(first.message)}`;
}

function describeRejection(err: CertificateRejectedError): string {
  if (err.code === 'CERT_HAS_EXPIRED') {
    const day = err.certificate?.validTo.slice(0, 10);
    return day === undefined ? 'TLS certificate expired' : `TLS certificate expired on ${day}`;
  }
  const known = byCode[err.code];
  return known === undefined ? untrusted(err.code) : known(err.host);
}

const proxyStatusHints: Record<number, string> = {
  407: 'it wants credentials: put user and password in the proxy URL',
  403: 'it does not allow this target: ask the network administrator, or exclude the target with NO_PROXY',
  502: 'it could not reach the target',
  503: 'it could not reach the target',
  504: 'it could not reach the target in time',
};

function describeProxyRefusal(err: ProxyRefusedError): string {
  const hint = proxyStatusHints[err.status] ?? 'check the proxy setting';
  return `proxy ${err.proxy} refused the connection (status ${err.status}): ${hint}`;
}

// Errors that are an answer from the network: a refusal or reset from the target, "no such
// name" from DNS, a TLS alert or a non-TLS reply, a proxy that answered. Timeouts, unreachable
// networks and DNS failures without an answer are not.
const answeringCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_NODATA',
  'EAI_NONAME',
  'ENODATA',
  'PROXY_REFUSED',
]);

/** Whether `err` proves the target (or the user's proxy) answered something. */
export function errorAnswered(err: unknown): boolean {
  return chain(err).some((e) => {
    if (e instanceof CertificateRejectedError) return true;
    const code = typeof e.code === 'string' ? e.code : '';
    return answeringCodes.has(code) || code.startsWith('ERR_SSL_') || code === 'EPROTO';
  });
}

/** The rule a connection-level failure belongs to (timeouts and cancellation are the run's). */
export function errorRule(err: unknown): DecidingRule {
  for (const e of chain(err)) {
    if (e instanceof EgressBlockedError) return 'egress-policy';
    if (e instanceof CertificateRejectedError) return 'certificate';
    if (e instanceof BodyDecodeError) return 'body';
  }
  return 'connection';
}
