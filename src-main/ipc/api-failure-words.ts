// The words for a failed call to the server, from its kind and cause (carried as data from
// src-main/agent/wire/failure.ts): shared by the window (src-renderer/words/failure-words.ts)
// and the tray, so a failed Sync now reads the same in both. Records over their unions, so a
// new kind or cause does not compile until it has words here.
import type { ApiErrorKind, FailureCause, FailureFacts } from './contract.ts';
import { nextTry, type NextTry } from '../agent/wire/failure.ts';

/** Why a call failed, said as what to check. */
export const causeWords: Record<FailureCause, string> = {
  refused:
    'Nothing answers at that address: the server refused the connection. Is the port right, and is the server running?',
  dns: 'The server’s name could not be found: check its spelling, or this machine’s network and DNS.',
  timeout:
    'The server did not answer in time: check the address, and that this machine can reach it (a firewall or proxy may be in the way).',
  'no-route': 'This machine has no route to the server: check the network connection.',
  reset:
    'The connection was closed before the server answered: try again, and check that the address is the uptime server.',
  'untrusted-ca':
    'The server’s certificate is not trusted by this machine: if your organisation uses its own certificate authority, add it in Settings.',
  'bad-certificate':
    'The server’s certificate has expired or is made out for another name: check the address, or tell the server’s administrator.',
  'plain-http':
    'This server speaks plain http, not https: use an address starting with http:// (only on a trusted network), or the server’s https address.',
  proxy: 'The proxy cannot be reached: check the proxy address in Settings.',
  'proxy-auth': 'The proxy asks for a user name and password: put them in the proxy address in Settings.',
  'proxy-denied':
    'The proxy refuses to connect to the uptime server: ask your network administrator to allow the server through it.',
  'proxy-upstream':
    'The proxy could not reach the uptime server: check the server address, or let the server bypass the proxy.',
  'bad-setting':
    'A network setting cannot be used (the proxy address or the server’s certificate file): check them in Settings.',
  'disk-full': 'The disk holding the agent’s data is full.',
  'not-writable': 'The agent’s data folder cannot be written.',
};

/**
 * A failed call to the server (a loop, Sync now, Send now), when no cause says more: what
 * happened and what to check. What the agent does next is callFailureWords's, said once.
 */
const kindWords: Record<ApiErrorKind, (f: FailureFacts) => string> = {
  network: () => 'The server could not be reached: check this machine’s network connection.',
  timeout: () => 'The server did not answer in time.',
  server: (f) => `The server had a problem of its own${f.status === undefined ? '' : ` (status ${f.status})`}.`,
  rejected: (f) =>
    `The server refused what was sent${f.status === undefined ? '' : ` (status ${f.status})`}${f.reason === undefined ? '' : `: ${f.reason}`}.`,
  auth: () => 'The server no longer accepts this monitor’s key: it was reset. Enroll this agent again.',
  disabled: () => 'The server has disabled this monitor; it resumes by itself once an administrator enables it.',
  'invalid-answer': () => 'The server’s answer is not what an uptime server sends: check the server address.',
  'damaged-key': () => 'The stored key is damaged and cannot be sent: enroll again, or reclaim this monitor.',
  'not-enrolled': () => 'This agent is not enrolled yet: enroll it with a token first.',
  'local-store': () =>
    'Results reached the server but could not be cleared from this computer’s store (is the disk full?).',
  cancelled: () => 'The agent was stopping, so the call was not finished.',
};

/** One sentence (or two) for a failed call to the server: what happened, and what to check. */
export function apiFailureWords(failure: FailureFacts): string {
  if (failure.cause !== undefined && (failure.kind === 'network' || failure.kind === 'timeout')) {
    const issuer =
      failure.cause === 'untrusted-ca' && failure.issuer !== undefined ? ` It is signed by ${failure.issuer}.` : '';
    // The proxy's address comes masked (no password); naming it says which setting to look at.
    const proxy = failure.proxy === undefined ? '' : ` The proxy in use: ${failure.proxy}.`;
    return `${causeWords[failure.cause]}${issuer}${proxy}`;
  }
  return kindWords[failure.kind](failure);
}

/** The call that failed: what follows differs, since only an upload holds results. */
export type ServerCall = 'sync' | 'upload';

/** The call behind each command that calls the server now (Send again uploads the refused results). */
export const commandCall = {
  'agent:sync-now': 'sync',
  'agent:upload-now': 'upload',
  'agent:resend-set-aside': 'upload',
} as const satisfies Record<string, ServerCall>;

/** Whether a channel is one of those commands (it answers a RunResult). */
export const isServerCommand = (channel: string): channel is keyof typeof commandCall =>
  Object.hasOwn(commandCall, channel);

/** What the agent does after the failed call, from the loops' own rule (nextTry). */
const afterWords: Record<ServerCall, Record<NextTry, string>> = {
  sync: {
    backoff: 'The agent tries again by itself, with growing pauses.',
    'next-period': 'The agent tries again at its next sync.',
    recheck: '',
    'no-fault': '',
  },
  upload: {
    backoff: 'The agent keeps the results and sends them again by itself, with growing pauses; nothing is lost.',
    'next-period': 'The agent keeps the results and sends them again at its next upload; nothing is lost.',
    recheck: 'The results stay on this computer until then; nothing is lost.',
    'no-fault': 'The results stay on this computer; nothing is lost.',
  },
};

/**
 * A failed call in words, and what follows it, said once: the one place where the retry and the
 * results' fate are said, wherever the failure is shown (a notice, the tray, a command's alert).
 */
export function callFailureWords(failure: FailureFacts, call: ServerCall): string {
  const after = afterWords[call][nextTry[failure.kind]];
  return after === '' ? apiFailureWords(failure) : `${apiFailureWords(failure)} ${after}`;
}
