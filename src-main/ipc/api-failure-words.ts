// The words for a failed call to the server, from its kind and cause (carried as data from
// src-main/agent/wire/failure.ts): shared by the window (src-renderer/words/failure-words.ts)
// and the tray, so a failed Sync now reads the same in both. Records over their unions, so a
// new kind or cause does not compile until it has words here.
import type { ApiErrorKind, FailureCause, FailureFacts } from './contract.ts';

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

/** A failed call to the server (a loop, Sync now, Send now), when no cause says more. */
const kindWords: Record<ApiErrorKind, (f: FailureFacts) => string> = {
  network: () => 'The server could not be reached; the agent keeps the results and tries again.',
  timeout: () => 'The server did not answer in time; the agent keeps the results and tries again.',
  server: (f) =>
    `The server had a problem of its own${f.status === undefined ? '' : ` (status ${f.status})`}; the agent keeps the results and tries again.`,
  rejected: (f) =>
    `The server refused what was sent${f.status === undefined ? '' : ` (status ${f.status})`}${f.reason === undefined ? '' : `: ${f.reason}`}.`,
  auth: () => 'The server no longer accepts this monitor’s key: it was reset. Enroll this agent again.',
  disabled: () => 'The server has disabled this monitor; it resumes by itself once an administrator enables it.',
  'invalid-answer': () =>
    'The server’s answer is not what an uptime server sends: check the server address; the agent tries again.',
  'damaged-key': () => 'The stored key is damaged and cannot be sent: enroll again, or reclaim this monitor.',
  'not-enrolled': () => 'This agent is not enrolled yet: enroll it with a token first.',
  'local-store': () =>
    'Results reached the server but could not be cleared from this computer’s store (is the disk full?); sending waits and tries again.',
  cancelled: () => 'The agent was stopping, so the call was not finished.',
};

/** One sentence (or two) for a failed call to the server. */
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
