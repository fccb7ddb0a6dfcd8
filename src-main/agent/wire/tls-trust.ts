// The API client's TLS connector: verification stays on, but a certificate the client does not
// trust is explained with its issuer ("signed by <issuer>"), which Node's own rejection does not
// carry. The handshake completes unverified, the verdict is read, and an untrusted socket is
// destroyed before a single byte (the API key) is written to it.
import type { SecureContext, TLSSocket } from 'node:tls';
import type { buildConnector as Connectors } from 'undici';
import { buildConnector } from './undici-parts.ts';
import { boundedConnector, type OpeningConnector } from './connect-bound.ts';

/** Thrown (as a connect error) for a server certificate that failed verification. */
export class UntrustedCertificate extends Error {
  readonly code: string;
  readonly issuer: string;
  constructor(code: string, issuer: string) {
    super(`the server's certificate failed verification (${code})`);
    this.code = code;
    this.issuer = issuer;
  }
}

const isTls = (socket: unknown): socket is TLSSocket =>
  typeof (socket as Partial<TLSSocket>).getPeerCertificate === 'function';

/** "CN=Office CA, O=Example" style, from the parts a user recognises. */
function issuerName(socket: TLSSocket): string {
  const issuer = socket.getPeerCertificate().issuer as Record<string, string | string[] | undefined> | undefined;
  const part = (key: string): string | undefined => {
    const v = issuer?.[key];
    return Array.isArray(v) ? v.join(' ') : v;
  };
  const parts = [
    ['CN', part('CN')],
    ['O', part('O')],
  ].filter((p): p is [string, string] => p[1] !== undefined);
  return parts.length === 0 ? 'an unknown issuer' : parts.map(([k, v]) => `${k}=${v}`).join(', ');
}

/**
 * connectTimeoutMs bounds the connect (connect-bound.ts): a silent server is unreachable well
 * before the call's deadline.
 */
export function verifyingConnector(options: {
  /** What the server's certificate must chain to (base/trusted-roots.ts). */
  trust: SecureContext;
  connectTimeoutMs: number;
}): Connectors.connector {
  const open = buildConnector({
    secureContext: options.trust,
    // Verified below, by hand, so that the error can name the issuer.
    rejectUnauthorized: false,
    // A resumed session skips the name check; API traffic is a few calls a minute.
    maxCachedSessions: 0,
    // Bounded by connect-bound.ts instead.
    timeout: 0,
  }) as OpeningConnector;
  const bounded = boundedConnector(open, options.connectTimeoutMs);
  return (opts, callback) =>
    bounded(opts, (...args) => {
      if (args[0] !== null) {
        callback(args[0], null);
        return;
      }
      const socket = args[1];
      if (opts.protocol === 'https:' && isTls(socket) && !socket.authorized) {
        const code = String(socket.authorizationError);
        const issuer = issuerName(socket);
        socket.destroy();
        callback(new UntrustedCertificate(code, issuer), null);
        return;
      }
      callback(null, socket);
    });
}
