// What a failure of a server call (or of the local store around one) means, as data: its kind,
// and its cause where known. These values travel unchanged through live state and IPC to the one
// place per surface that chooses words (src-renderer/words/failure-words.ts for the window,
// src-main/cli/failure-words.ts for the command line). A leaf: it imports nothing.

export type ApiErrorKind =
  | 'network'
  | 'timeout'
  | 'server'
  | 'rejected'
  | 'auth'
  | 'disabled'
  | 'invalid-answer'
  | 'damaged-key'
  | 'not-enrolled'
  | 'local-store'
  | 'cancelled';

/** Every ApiErrorKind, for tests that must cover each one. */
export const apiErrorKinds: readonly ApiErrorKind[] = [
  'network',
  'timeout',
  'server',
  'rejected',
  'auth',
  'disabled',
  'invalid-answer',
  'damaged-key',
  'not-enrolled',
  'local-store',
  'cancelled',
];

/**
 * What the agent's loops do after a failed call of each kind: delivery/service-calls.ts waits
 * by it, and the words after a failure say it (src-main/ipc/api-failure-words.ts).
 * - backoff: the server or the way to it is in trouble; tried again with growing pauses.
 * - next-period: the payload or the local store is at fault, which waiting less would not cure;
 *   tried again at the loop's next regular run.
 * - recheck: the server refuses this monitor (401, 403) or its key is damaged; a person must
 *   act, and until then only a slow recheck asks.
 * - no-fault: the agent was stopping or is not enrolled; nothing is wrong to try again.
 */
export type NextTry = 'backoff' | 'next-period' | 'recheck' | 'no-fault';

export const nextTry: Record<ApiErrorKind, NextTry> = {
  network: 'backoff',
  timeout: 'backoff',
  server: 'backoff',
  'invalid-answer': 'backoff',
  rejected: 'next-period',
  'local-store': 'next-period',
  auth: 'recheck',
  disabled: 'recheck',
  'damaged-key': 'recheck',
  'not-enrolled': 'no-fault',
  cancelled: 'no-fault',
};

/**
 * Why, where it is known: what the person can check or fix. The network causes come from the
 * error codes of Node, undici and OpenSSL, read here once; the local ones from file-system codes.
 */
export type FailureCause =
  /** Nothing listens at that address (ECONNREFUSED). */
  | 'refused'
  /** The name is not in DNS, or DNS did not answer. */
  | 'dns'
  | 'timeout'
  /** No route to the host or network. */
  | 'no-route'
  /** The connection was closed before an answer. */
  | 'reset'
  /** The certificate is signed by a CA this machine does not trust (self-signed, private CA). */
  | 'untrusted-ca'
  /** The certificate is expired or for another name. */
  | 'bad-certificate'
  /** An https address of a server that speaks plain http. */
  | 'plain-http'
  /** The proxy itself cannot be reached. */
  | 'proxy'
  /** The proxy asks for a user name and password (407). */
  | 'proxy-auth'
  /** The proxy refuses to connect to the server (403). */
  | 'proxy-denied'
  /** The proxy could not reach the server (502 and the like). */
  | 'proxy-upstream'
  /** A network setting cannot be used (the proxy address, the server CA file). */
  | 'bad-setting'
  /** Local: the disk is full. */
  | 'disk-full'
  /** Local: the data folder cannot be written (permissions, read-only file system). */
  | 'not-writable';

export const failureCauses: readonly FailureCause[] = [
  'refused',
  'dns',
  'timeout',
  'no-route',
  'reset',
  'untrusted-ca',
  'bad-certificate',
  'plain-http',
  'proxy',
  'proxy-auth',
  'proxy-denied',
  'proxy-upstream',
  'bad-setting',
  'disk-full',
  'not-writable',
];

export interface ApiError {
  kind: ApiErrorKind;
  cause?: FailureCause;
  /** HTTP status when the server answered. */
  status?: number;
  /** The server's one-line plain-text reason, when it gave one. */
  reason?: string;
  /** The proxy in use, credentials masked, when the failure is the proxy's. */
  proxy?: string;
  /** Who signed an untrusted certificate. */
  issuer?: string;
  /** One line for the log: what happened. Never holds a secret. Never shown as is in the window. */
  message: string;
  /** What the user can do about it, for the log, when it is not "wait, the agent retries". */
  action?: string;
}

/** What a failure means, without its log text: what crosses to the window and into live state. */
export type FailureFacts = Omit<ApiError, 'message' | 'action'>;

/** The facts of an ApiError, for live state and IPC. */
export function factsOf(error: ApiError): FailureFacts {
  const { message: _log, action: _logAction, ...facts } = error;
  return facts;
}

/** The local cause of a file-system error code, when it is one the person can act on. */
export function localCause(code: string | undefined): FailureCause | undefined {
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'disk-full';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'not-writable';
  return undefined;
}
