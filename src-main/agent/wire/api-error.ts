// Every API failure is classified once into a kind, and each kind has one action (design.md):
//   network, timeout -> retry with backoff; server (5xx) -> retry with backoff;
//   rejected (400/404/409/413) -> the payload is at fault: fix or set it aside, never resend as is;
//   auth (401) -> the key was reset: stop, surface, retry slowly; disabled (403) -> same, pause probing;
//   invalid-answer (not JSON, wrong schema, redirect) -> treat like a server fault: keep state, back off;
//   damaged-key (the stored key cannot be sent as a header) -> stop, surface: re-enroll or reclaim;
//   not-enrolled (no identity to call with) -> nothing was sent: enroll first;
//   local-store (the server took the results but the store could not remove them) -> wait, retry;
//   cancelled -> the agent is stopping (the call was aborted): nothing to do, nothing recorded.
// The kind and its cause travel as data to the window and the CLI, which choose their own words
// (src-renderer/words/, src-main/cli/failure-words.ts); `message` and `action` are for the log.
import { UntrustedCertificate } from './tls-trust.ts';
import type { ApiError, ApiErrorKind, FailureCause } from './failure.ts';

export type { ApiError, ApiErrorKind, FailureCause, FailureFacts } from './failure.ts';

export type ApiOutcome<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'disabled';
  if (status >= 500) return 'server';
  if (status >= 400) return 'rejected';
  return 'invalid-answer';
}

const codeMessages: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'server name not found in DNS',
  EAI_AGAIN: 'DNS lookup failed (temporary)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate is not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another name",
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server speaks plain http, not https',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the server speaks plain http, not https',
  ERR_SSL_HTTP_REQUEST: 'the server speaks plain http, not https',
};

const codeCauses: Record<string, FailureCause> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EHOSTUNREACH: 'no-route',
  ENETUNREACH: 'no-route',
  ETIMEDOUT: 'timeout',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  CERT_HAS_EXPIRED: 'bad-certificate',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'untrusted-ca',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted-ca',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted-ca',
  ERR_TLS_CERT_ALTNAME_INVALID: 'bad-certificate',
  ERR_SSL_WRONG_VERSION_NUMBER: 'plain-http',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'plain-http',
  ERR_SSL_HTTP_REQUEST: 'plain-http',
};

/** The error code of a Node or undici error, looking through `cause` chains. */
export function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in codeMessages) return code;
  }
  return undefined;
}

/** The proxy in use, masked, and the server's host, so that proxy failures name both. */
export interface Route {
  proxy?: string;
  serverHost: string;
}

const trustCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

function messageChain(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) parts.push(e.message);
  return parts.join(' / ');
}

/** A failure of the proxy itself: it refused the tunnel, or could not be reached. */
function proxyError(error: unknown, route: Route & { proxy: string }): ApiError | undefined {
  const tunnel = /Proxy response \((\d{3})\)/.exec(messageChain(error));
  if (tunnel !== null) {
    const status = Number(tunnel[1]);
    const base = `the proxy ${route.proxy} refused to connect to ${route.serverHost} (${status})`;
    if (status === 407) {
      return {
        kind: 'network',
        cause: 'proxy-auth',
        proxy: route.proxy,
        status,
        message: `the proxy ${route.proxy} asks for a user name and password (407)`,
        action:
          'put the proxy credentials in the proxy address in Settings (http://user:password@host:port), or fix them',
      };
    }
    if (status === 403)
      return {
        kind: 'network',
        cause: 'proxy-denied',
        proxy: route.proxy,
        status,
        message: base,
        action: 'ask your network administrator to allow the uptime server through the proxy',
      };
    return {
      kind: 'network',
      cause: 'proxy-upstream',
      proxy: route.proxy,
      status,
      message: `${base}: the proxy could not reach the server`,
      action: 'check the server URL, or let the server bypass the proxy (NO_PROXY)',
    };
  }
  const code = errorCode(error);
  if (code === undefined || codeCauses[code] === 'untrusted-ca' || codeCauses[code] === 'bad-certificate')
    return undefined;
  if (codeCauses[code] === 'plain-http') return undefined;
  return {
    kind: 'network',
    cause: 'proxy',
    proxy: route.proxy,
    message: `could not reach the proxy ${route.proxy}: ${codeMessages[code]}`,
    action: 'check the proxy address in Settings',
  };
}

/** Turns a thrown network error into a classified ApiError naming what was tried. */
export function networkError(
  error: unknown,
  target: string,
  timedOut: boolean,
  cancelled: boolean,
  route?: Route,
): ApiError {
  if (cancelled) return { kind: 'cancelled', message: `request to ${target} cancelled` };
  if (timedOut) {
    const via = route?.proxy === undefined ? '' : ` through the proxy ${route.proxy}`;
    return {
      kind: 'timeout',
      cause: 'timeout',
      ...(route?.proxy === undefined ? {} : { proxy: route.proxy }),
      message: `no answer from ${target}${via} in time`,
    };
  }
  if (error instanceof UntrustedCertificate && trustCodes.has(error.code)) {
    return {
      kind: 'network',
      cause: 'untrusted-ca',
      issuer: error.issuer,
      message: `the server's certificate is not trusted: signed by ${error.issuer}`,
      action: 'add your CA in Settings',
    };
  }
  if (route?.proxy !== undefined) {
    const viaProxy = proxyError(error, { ...route, proxy: route.proxy });
    if (viaProxy !== undefined) return viaProxy;
  }
  const code = error instanceof UntrustedCertificate ? error.code : errorCode(error);
  const what =
    code !== undefined && code in codeMessages
      ? codeMessages[code]
      : error instanceof Error
        ? error.message
        : String(error);
  const cause = code === undefined ? undefined : codeCauses[code];
  return { kind: 'network', ...(cause === undefined ? {} : { cause }), message: `could not reach ${target}: ${what}` };
}

/** A server call that did not succeed, as its callers return it. */
export type CallFailure = { ok: false; error: ApiError };
