// A server absence in words, the same in the Events view and the Outages view: why it could not
// be reached (from the last failure's kind and cause, as data), what waited, and what was
// delivered after. Past tense and short: this is history, the advice for a problem happening now
// is the Overview's (src-main/ipc/api-failure-words.ts). Records over the unions, so a new kind or
// cause does not compile until it has words here.
import type { AbsenceFailure, ApiErrorKind, FailureCause, ServerAbsence } from '../../src-main/ipc/contract.ts';
import { count } from '../format.ts';

const causeWords: Record<FailureCause, string> = {
  refused: 'it refused connections',
  dns: 'its name could not be found',
  timeout: 'it did not answer in time',
  'no-route': 'this machine had no route to it',
  reset: 'connections to it were closed before it answered',
  'untrusted-ca': 'its certificate was not trusted by this machine',
  'bad-certificate': 'its certificate had expired or was made out for another name',
  'plain-http': 'it spoke plain http, not https',
  proxy: 'the proxy could not be reached',
  'proxy-auth': 'the proxy asked for a user name and password',
  'proxy-denied': 'the proxy refused to connect to it',
  'proxy-upstream': 'the proxy could not reach it',
  'bad-setting': 'a network setting could not be used',
  'disk-full': 'the disk was full',
  'not-writable': 'the data folder could not be written',
};

const kindWords: Record<ApiErrorKind, (f: AbsenceFailure) => string> = {
  network: () => 'it could not be reached',
  timeout: () => 'it did not answer in time',
  server: (f) => `it answered with errors of its own${f.status === undefined ? '' : ` (status ${f.status})`}`,
  'invalid-answer': () => 'its answers were not an uptime server’s',
  rejected: () => 'it refused what was sent',
  auth: () => 'it refused this monitor’s key',
  disabled: () => 'it had disabled this monitor',
  'damaged-key': () => 'the stored key could not be sent',
  'not-enrolled': () => 'this agent was not enrolled',
  'local-store': () => 'this computer’s store could not be written',
  cancelled: () => 'the agent was stopping',
};

/** Why the server could not be reached, as "the last time, it refused connections". */
export function absenceCause(failure: AbsenceFailure): string {
  return failure.cause !== undefined && (failure.kind === 'network' || failure.kind === 'timeout')
    ? causeWords[failure.cause]
    : kindWords[failure.kind](failure);
}

/** "12 results waited (at most 14); all were delivered by 10:05" — what the absence held back. */
export function absenceBacklog(absence: ServerAbsence, clock: (iso: string) => string): string {
  const most = absence.waiting_most;
  if (absence.ended_at === null)
    return most === 0
      ? 'No results are waiting yet; they are kept here until it answers.'
      : `${count(most, 'result is', 'results are')} waiting here; they are sent when it answers.`;
  if (absence.end === 'stopped')
    return most === 0
      ? 'The agent stopped before the server answered again.'
      : `The agent stopped before the server answered again; ${count(most, 'result', 'results')} waited, and are sent once it answers.`;
  const backlog = absence.waiting_at_end ?? 0;
  if (backlog === 0) return most === 0 ? 'No results had to wait.' : `${count(most, 'result', 'results')} waited.`;
  const waited = `${count(backlog, 'result', 'results')} waited${most > backlog ? ` (at most ${most})` : ''}`;
  if (absence.drained_at !== null)
    return `${waited}; ${backlog === 1 ? 'it was' : 'all were'} delivered by ${clock(absence.drained_at)}.`;
  if (absence.end === 'refused') return `${waited}; they are sent once the server accepts this monitor again.`;
  return `${waited}; ${absence.delivered_after} delivered so far.`;
}

/** Ended with results waiting that are not all delivered yet: a view showing it reads it again as they go. */
export const awaitsDrain = (a: ServerAbsence): boolean =>
  a.ended_at !== null && a.end === 'answered' && a.drained_at === null && (a.waiting_at_end ?? 0) > 0;

/** How it ended, when that is not simply "the server answered again". */
export function absenceEnd(absence: ServerAbsence): string {
  if (absence.end === 'refused') return 'It ended when the server answered but refused this monitor.';
  return '';
}
