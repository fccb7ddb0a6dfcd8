// Every failure kind and cause the agent can send has words in the window, and none of them is
// machine text: the table is driven by the agent's own lists, so a new kind without words fails.
import { describe, expect, it } from 'vitest';
import { enrollFailureKinds, type EnrollFailure } from '../../src-main/agent/identity/enrollment.ts';
import { apiErrorKinds, failureCauses } from '../../src-main/agent/wire/failure.ts';
import {
  apiFailureWords,
  callFailureWords,
  causeWords,
  enrollFailureWords,
} from '../../src-renderer/words/failure-words.ts';
import { resultsKeptSentences } from './said-once.ts';

/** What no sentence for a person may contain: errno names, flags, API paths, ISO times, library text. */
const machineText =
  /\bE[A-Z]{4,}\b|--[a-z][a-z-]+|\/api\/|\d{4}-\d\d-\d\dT|SSL routines|UND_ERR|undefined|null|\[object/;

describe('failure words', () => {
  it.each(apiErrorKinds.map((kind) => ({ kind })))('a failed call of kind $kind has words', ({ kind }) => {
    const words = apiFailureWords({ kind, status: 500 });
    expect(words.length).toBeGreaterThan(20);
    expect(words).not.toMatch(machineText);
  });

  it.each(apiErrorKinds.map((kind) => ({ kind })))(
    'after a failed call of kind $kind: an upload says once that the results are kept, a sync never speaks of results',
    ({ kind }) => {
      const upload = callFailureWords({ kind, status: 500 }, 'upload');
      const sync = callFailureWords({ kind, status: 500 }, 'sync');
      expect(upload.startsWith(apiFailureWords({ kind, status: 500 }))).toBe(true);
      expect(resultsKeptSentences(upload)).toHaveLength(1);
      expect(resultsKeptSentences(sync)).toEqual([]);
      // Said once: the failure's own words leave what follows to callFailureWords.
      expect(resultsKeptSentences(apiFailureWords({ kind, status: 500 }))).toEqual([]);
      for (const words of [upload, sync])
        expect(words.match(/tries again|sends them again/g)?.length ?? 0).toBeLessThanOrEqual(1);
      expect(upload).not.toMatch(machineText);
    },
  );

  it.each(failureCauses.map((cause) => ({ cause })))('the cause $cause has words of its own', ({ cause }) => {
    const words = apiFailureWords({ kind: 'network', cause });
    expect(words).toBe(causeWords[cause]);
    expect(apiFailureWords({ kind: 'network', cause, proxy: 'http://office:***@proxy:3128' })).toContain(
      'The proxy in use: http://office:***@proxy:3128.',
    );
    expect(words).not.toMatch(machineText);
  });

  it('a token the form refuses is said as the token, with its own limit (not the 200 characters of a place field)', () => {
    const invalid = enrollFailureWords(
      { ok: false, kind: 'usage', field: 'token', problem: 'invalid', message: 'x' },
      'https://uptime.example',
      '',
    );
    expect(invalid).toMatchObject({ title: 'Some fields need attention', field: 'token' });
    expect(invalid.detail).toMatch(/characters a token never has/);
    const long = enrollFailureWords(
      { ok: false, kind: 'usage', field: 'token', problem: 'too-long', message: 'x' },
      'https://uptime.example',
      '',
    );
    expect(long.detail).toContain('longer than 4096 characters');
  });

  it('every cause is worded differently', () => {
    expect(new Set(failureCauses.map((cause) => causeWords[cause])).size).toBe(failureCauses.length);
  });

  const failure = (kind: EnrollFailure['kind']): EnrollFailure => ({
    ok: false,
    kind,
    message: 'could not reach https://uptime.example/api/enroll: connect ECONNREFUSED --flag',
    monitorId: 'q1w2e3r4t5y6',
  });

  it.each(enrollFailureKinds.map((kind) => ({ kind })))('an enrollment failure of kind $kind has words', ({ kind }) => {
    for (const reclaimId of ['', 'q1w2e3r4t5y6']) {
      const text = enrollFailureWords(failure(kind), 'https://uptime.example', reclaimId);
      for (const part of [text.title, text.detail, text.advice]) {
        expect(part.length).toBeGreaterThan(10);
        expect(part).not.toMatch(machineText);
      }
    }
  });

  it('not saved names the monitor to reclaim and the local cause', () => {
    const text = enrollFailureWords({ ...failure('not-saved'), cause: 'not-writable' }, 'https://uptime.example', '');
    expect(text.title).toBe('Enrolled, but the key could not be saved');
    expect(text.detail).toContain('monitor q1w2e3r4t5y6');
    expect(text.detail).toContain('data folder cannot be written');
    expect(text.advice).toContain('reclaim monitor q1w2e3r4t5y6');
  });

  it('a field problem names the field, never the log line', () => {
    const text = enrollFailureWords(
      { ok: false, kind: 'usage', message: 'city is longer than 200 characters', field: 'city', problem: 'too-long' },
      'https://uptime.example',
      '',
    );
    expect(text).toMatchObject({ field: 'city', detail: 'The city is longer than 200 characters.' });
  });
});
