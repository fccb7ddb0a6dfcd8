// Every API failure is classified once into a kind, and each kind has one action (design.md):
//   network, timeout -> retry with backoff; server (5xx) -> retry with backoff;
//   rejected (400/404/409/413) -> the payload is at fault: fix or set it aside, never resend as is;
//   auth (401) -> the key was reset: stop, surface, retry slowly; disabled (403) -> same, pause probing;
//   invalid-answer (not JSON, wrong schema, redirect) -> treat like a server fault: keep state, back off;
//   cancelled -> the agent is stopping: nothing to do.
export type ApiErrorKind =
  | 'network'
  | 'timeout'
  | 'server'
  | 'rejected'
  | 'auth'
  | 'disabled'
  | 'invalid-answer'
  | 'cancelled';

export interface ApiError {
  kind: ApiErrorKind;
  /** HTTP status when the server answered. */
  status?: number;
  /** The server's one-line plain-text reason, when it gave one. */
  reason?: string;
  /** One line for logs and the UI: what happened. Never holds a secret. */
  message: string;
}

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
};

/** The error code of a Node or undici error, looking through `cause` chains. */
export function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in codeMessages) return code;
  }
  return undefined;
}

/** Turns a thrown network error into a classified ApiError naming what was tried. */
export function networkError(error: unknown, target: string, timedOut: boolean, cancelled: boolean): ApiError {
  if (cancelled) return { kind: 'cancelled', message: `request to ${target} cancelled` };
  if (timedOut) return { kind: 'timeout', message: `no answer from ${target} in time` };
  const code = errorCode(error);
  const what = code === undefined ? (error instanceof Error ? error.message : String(error)) : codeMessages[code];
  return { kind: 'network', message: `could not reach ${target}: ${what}` };
}
