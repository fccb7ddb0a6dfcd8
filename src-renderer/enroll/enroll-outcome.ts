// Each answer to an enrollment, in words, with what to do about it and the field it concerns
// (the form marks that field invalid and moves the focus there). Raw library text (OpenSSL
// codes, errno names) and command-line flags never reach the window: they are recognised here
// and said in plain words.
import type { EnrollResult } from '../../src-main/ipc/contract.ts';
import { sentence } from '../format.ts';

export type EnrollFailure = Extract<EnrollResult, { ok: false }>;
export type EnrollField = 'server' | 'token' | 'name' | 'region' | 'country' | 'city' | 'reclaimId';

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

/** Network failures as the agent's libraries word them, and what they mean to a person. */
const networkWords: { test: RegExp; words: string }[] = [
  {
    test: /wrong version number|packet length too long|http request|ERR_SSL_WRONG_VERSION|speaks plain http/i,
    words:
      'This server speaks plain http, not https: use an address starting with http:// (only on a trusted network), or the server’s https address.',
  },
  {
    test: /ECONNREFUSED|connection refused/i,
    words:
      'Nothing answers at that address: the server refused the connection. Is the port right, and is the server running?',
  },
  {
    test: /ENOTFOUND|not found in DNS|EAI_AGAIN/i,
    words: 'The server’s name could not be found: check its spelling, or this machine’s network and DNS.',
  },
  {
    test: /ETIMEDOUT|timed out|no answer .* in time|CONNECT_TIMEOUT/i,
    words:
      'The server did not answer in time: check the address, and that this machine can reach it (a firewall or proxy may be in the way).',
  },
  {
    test: /EHOSTUNREACH|ENETUNREACH|unreachable/i,
    words: 'This machine has no route to the server: check the network connection.',
  },
  {
    test: /self[- ]signed|not trusted|unable to verify|UNABLE_TO_GET_ISSUER|certificate/i,
    words:
      'The server’s certificate is not trusted by this machine: if your organisation uses its own certificate authority, add it in Settings.',
  },
  {
    test: /ECONNRESET|socket|closed/i,
    words:
      'The connection was closed before the server answered: try again, and check that the address is the uptime server.',
  },
];

/** A network failure in words; undefined when the text is not one of the known kinds. */
export function networkFailureWords(message: string): string | undefined {
  return networkWords.find((w) => w.test.test(message))?.words;
}

/** Text that looks like a library's internals (OpenSSL, errno codes, flags) is not shown as is. */
export function looksRaw(message: string): boolean {
  return /SSL routines|^\s*[0-9A-F]{8}:|\bE[A-Z]{4,}\b|--[a-z][a-z-]+|\bUND_ERR_/.test(message);
}

const fieldOfUsage = (message: string): EnrollField | undefined => {
  const text = message.toLowerCase();
  if (/server url|plain http|https:\/\//.test(text)) return 'server';
  if (/token/.test(text)) return 'token';
  if (/monitor id|reclaim/.test(text)) return 'reclaimId';
  for (const field of ['name', 'region', 'country', 'city'] as const) if (text.includes(field)) return field;
  return undefined;
};

export function describeFailure(failure: EnrollFailure, server: string, reclaimId: string): FailureText {
  const detail = sentence(failure.message);
  const base = { offerNewMonitor: false, offerInsecureHttp: false };
  const tried = `${server.replace(/\/+$/, '')}/api/enroll`;
  switch (failure.kind) {
    case 'token-rejected':
      return {
        ...base,
        title: 'The server refused the enrollment token',
        detail: 'The token is unknown, revoked or expired.',
        advice: 'Mint a new token on the server’s “Add a monitor” page, paste it here, and enroll again.',
        field: 'token',
      };
    case 'no-such-monitor':
      if (reclaimId === '') {
        // A plain enroll has no monitor id: a 404 means the address is not the API's base.
        return {
          ...base,
          title: 'This address does not look like the uptime server’s API',
          detail: `Tried ${tried}, and nothing there answers enrollments (it answered “not found”).`,
          advice: 'Give the server’s base address, as shown on its “Add a monitor” page (usually without a path).',
          field: 'server',
        };
      }
      return {
        ...base,
        title: 'No such monitor in this organisation',
        detail: `The server has no monitor with id ${reclaimId} in the organisation of this token.`,
        advice: 'Check the monitor id, or enroll this agent as a new monitor.',
        field: 'reclaimId',
        offerNewMonitor: true,
      };
    case 'still-enrolled':
      return {
        ...base,
        title: 'That monitor is still enrolled',
        detail: `Monitor ${reclaimId} is enrolled and in use, so it cannot be reclaimed now.`,
        advice:
          'A monitor can be reclaimed only after its enrollment was reset: reset it on the server’s Monitors page, then reclaim it again.',
        field: 'reclaimId',
      };
    case 'bad-request': {
      const field = fieldOfUsage(failure.message.replace(/^.*?request:?/i, ''));
      return {
        ...base,
        title: 'The server refused the request',
        detail,
        advice: 'Correct what the server named above, then enroll again.',
        ...(field === undefined ? {} : { field }),
      };
    }
    case 'unreachable': {
      const words = networkFailureWords(failure.message);
      return {
        ...base,
        title: 'The server could not be reached',
        detail: `Tried ${tried}. ${words ?? (looksRaw(failure.message) ? 'The connection failed.' : detail)}`,
        advice:
          words === undefined
            ? 'Check the server URL, that the server is running, and that this machine can reach it.'
            : 'Then enroll again; everything typed is kept.',
        field: 'server',
      };
    }
    case 'usage': {
      if (/plain http/i.test(failure.message)) {
        const host = /plain http to (\S+)/i.exec(failure.message)?.[1] ?? 'that server';
        return {
          ...base,
          title: 'This address uses plain http',
          detail: `Over plain http to ${host}, the API key would cross the network unencrypted.`,
          advice: 'Use the server’s https:// address, or, on a network you trust, allow plain http for it below.',
          field: 'server',
          offerInsecureHttp: true,
        };
      }
      const field = fieldOfUsage(failure.message);
      return {
        ...base,
        title: 'Some fields need attention',
        detail: looksRaw(failure.message) ? 'A field is not valid.' : detail,
        advice: 'Correct them and enroll again; nothing was sent.',
        ...(field === undefined ? {} : { field }),
      };
    }
  }
}
