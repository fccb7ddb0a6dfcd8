// The one place the window chooses words for a failure: from its kind, cause, field and monitor
// id, carried as data from where it happened (src-main/agent/wire/failure.ts, enrollment.ts).
// Nothing here reads the agent's log text: library text, errno names, methods and URLs of API
// calls and command-line flags never reach the window. Every table is a Record over its union,
// so a new kind or cause does not compile until it has words here.
import type {
  EnrollFailure,
  EnrollFailureKind,
  EnrollField,
  FailureCause,
  FieldProblem,
} from '../../src-main/ipc/contract.ts';
import { inputLimits } from '../../src-main/ipc/contract.ts';
import {
  apiFailureWords,
  callFailureWords,
  causeWords,
  commandCall,
  type ServerCall,
} from '../../src-main/ipc/api-failure-words.ts';

// The words for a failed call to the server are shared with the tray: one place, in src-main/ipc.
export { apiFailureWords, callFailureWords, causeWords, commandCall, type ServerCall };

export type { EnrollField } from '../../src-main/ipc/contract.ts';

/** What went wrong and what to do, in the reader's words. */
export interface FailureText {
  title: string;
  detail: string;
  advice: string;
  /** The field the failure is about, if one is. */
  field?: EnrollField;
  /** 404 on a reclaim: offer to enroll as a new monitor instead. */
  offerNewMonitor: boolean;
  /** Plain http to another machine was refused: offer to allow it, right there. */
  offerInsecureHttp: boolean;
}

const fieldLabels: Record<EnrollField, string> = {
  server: 'The server URL',
  token: 'The enrollment token',
  name: 'The monitor name',
  region: 'The region',
  country: 'The country',
  city: 'The city',
  reclaimId: 'The monitor id to reclaim',
};

const problemWords: Record<FieldProblem, (field: EnrollField) => string> = {
  required: (field) => `${fieldLabels[field]} is required.`,
  'too-long': (field) =>
    `${fieldLabels[field]} is longer than ${field === 'token' ? inputLimits.enrollTokenChars : inputLimits.enrollFieldChars} characters.${field === 'token' ? ' Copy the token again from the server’s “Add a monitor” page.' : ''}`,
  invalid: (field) =>
    field === 'server'
      ? 'The server URL is not a web address like https://uptime.example.com (http:// only to this computer, or when allowed below).'
      : field === 'reclaimId'
        ? 'The monitor id to reclaim is 12 letters and digits, as shown on the server’s Monitors page.'
        : field === 'token'
          ? 'The enrollment token holds characters a token never has (spaces, line breaks or curly quotes): copy it again from the server’s “Add a monitor” page, as one piece.'
          : `${fieldLabels[field]} is not valid.`,
  'plain-http': () => 'Over plain http, the API key would cross the network unencrypted.',
};

const hostOf = (server: string): string => {
  try {
    return new URL(server).host;
  } catch {
    return 'that server';
  }
};

const localWords = (cause: FailureCause | undefined): string =>
  cause === 'disk-full' || cause === 'not-writable' ? causeWords[cause] : 'The agent’s data folder cannot be used.';

type Words = (failure: EnrollFailure, server: string, reclaimId: string) => FailureText;

const base = { offerNewMonitor: false, offerInsecureHttp: false };

/** Each enrollment failure in words; a Record so that every kind has its words. */
export const enrollWords: Record<EnrollFailureKind, Words> = {
  'token-rejected': () => ({
    ...base,
    title: 'The server refused the enrollment token',
    detail: 'The token is unknown, revoked or expired.',
    advice: 'Mint a new token on the server’s “Add a monitor” page, paste it here, and enroll again.',
    field: 'token',
  }),
  'no-such-monitor': (_failure, server, reclaimId) =>
    reclaimId === ''
      ? {
          // A plain enroll has no monitor id: a 404 means the address is not the API's base.
          ...base,
          title: 'This address does not look like the uptime server’s API',
          detail: `Tried ${server.replace(/\/+$/, '')}, and nothing there answers enrollments (it answered “not found”).`,
          advice: 'Give the server’s base address, as shown on its “Add a monitor” page (usually without a path).',
          field: 'server',
        }
      : {
          ...base,
          title: 'No such monitor in this organisation',
          detail: `The server has no monitor with id ${reclaimId} in the organisation of this token.`,
          advice: 'Check the monitor id, or enroll this agent as a new monitor.',
          field: 'reclaimId',
          offerNewMonitor: true,
        },
  'still-enrolled': (failure, _server, reclaimId) => ({
    ...base,
    title: 'That monitor is still enrolled',
    detail: `Monitor ${failure.monitorId ?? reclaimId} is enrolled and in use, so it cannot be reclaimed now.`,
    advice:
      'A monitor can be reclaimed only after its enrollment was reset: reset it on the server’s Monitors page, then reclaim it again.',
    field: 'reclaimId',
  }),
  'bad-request': (failure) => ({
    ...base,
    title: 'The server refused the request',
    detail:
      failure.reason === undefined
        ? 'The server did not accept the details of this monitor.'
        : `The server said: ${failure.reason}.`,
    advice: 'Correct what the server named, then enroll again.',
    ...(failure.field === undefined ? {} : { field: failure.field }),
  }),
  unreachable: (failure, server) => {
    const tried = `Tried ${server.replace(/\/+$/, '')}.`;
    if (failure.cause !== undefined)
      return {
        ...base,
        title: unreachableTitle(failure.cause),
        detail: `${tried} ${apiFailureWords({ ...failure, kind: 'network' })}`,
        advice: 'Then enroll again; everything typed is kept.',
        field: 'server',
      };
    const answered = failure.status !== undefined;
    return {
      ...base,
      title: answered ? 'The server did not answer as an uptime server does' : 'The server could not be reached',
      detail: answered
        ? `${tried} It answered with an error${failure.status === undefined ? '' : ` (status ${failure.status})`}.`
        : `${tried} The connection failed.`,
      advice: answered
        ? 'Check the server URL (its base address, as shown on its “Add a monitor” page), or try again later.'
        : 'Check the server URL, that the server is running, and that this machine can reach it.',
      field: 'server',
    };
  },
  usage: (failure, server) => {
    if (failure.problem === 'plain-http')
      return {
        ...base,
        title: 'This address uses plain http',
        detail: `Over plain http to ${hostOf(server)}, the API key would cross the network unencrypted.`,
        advice: 'Use the server’s https:// address, or, on a network you trust, allow plain http for it below.',
        field: 'server',
        offerInsecureHttp: true,
      };
    return {
      ...base,
      title: 'Some fields need attention',
      detail:
        failure.field === undefined
          ? 'A field is not valid.'
          : problemWords[failure.problem ?? 'required'](failure.field),
      advice: 'Correct them and enroll again; nothing was sent.',
      ...(failure.field === undefined ? {} : { field: failure.field }),
    };
  },
  'local-state': (failure) => ({
    ...base,
    title: 'This computer cannot keep the monitor’s key',
    detail: `${localWords(failure.cause)} Nothing was sent to the server.`,
    advice:
      failure.cause === 'disk-full'
        ? 'Free some space, then enroll again.'
        : 'Make the data folder writable for this user (or start the agent with another one), then enroll again.',
  }),
  'not-saved': (failure) => {
    const id = failure.monitorId ?? 'the new monitor';
    return {
      ...base,
      title: 'Enrolled, but the key could not be saved',
      detail: `The server enrolled this agent as monitor ${id}, but its key could not be saved on this computer. ${localWords(failure.cause)} The server does not hand out the same key twice.`,
      advice: `${failure.cause === 'disk-full' ? 'Free some space' : 'Fix the data folder'}, reset monitor ${id}’s enrollment on the server’s Monitors page, then reclaim monitor ${id} here (under “Reclaim monitor id”).`,
    };
  },
};

function unreachableTitle(cause: FailureCause): string {
  if (cause === 'untrusted-ca' || cause === 'bad-certificate') return 'The server’s certificate is not trusted';
  if (cause === 'plain-http') return 'Not an https server';
  if (cause === 'proxy' || cause === 'proxy-auth' || cause === 'proxy-denied' || cause === 'proxy-upstream')
    return 'The proxy is in the way';
  if (cause === 'bad-setting') return 'A network setting cannot be used';
  return 'The server could not be reached';
}

/** An enrollment failure in words, with the field it concerns. */
export const enrollFailureWords = (failure: EnrollFailure, server: string, reclaimId: string): FailureText =>
  enrollWords[failure.kind](failure, server, reclaimId);
