import { describe, expect, it } from 'vitest';
import type { ReadOutcome } from '../../../../src-main/agent/checks/private-definitions/read-settled.ts';
import {
  emptyState,
  nextState,
  sameContent,
  type PrivateDefinitionsState,
} from '../../../../src-main/agent/checks/private-definitions/state.ts';

const file = '/etc/uptime/private.json';
const good = JSON.stringify({ checks: [{ guid: 'g1', url: 'http://a.test' }] });
const earlier = '2025-01-01T00:00:00.000Z';
const now = '2025-01-02T00:00:00.000Z';
const lastGood: PrivateDefinitionsState = nextState(emptyState(file), { kind: 'text', text: good }, earlier);

describe('nextState', () => {
  it('a good file replaces the entries and clears the file error', () => {
    const broken = nextState(lastGood, { kind: 'text', text: '{' }, now);
    const fixed = nextState(
      broken,
      { kind: 'text', text: JSON.stringify({ checks: [{ guid: 'g2', url: 'tcp://b.test:1' }] }) },
      now,
    );
    expect(fixed).toEqual({
      file,
      loadedAt: now,
      entries: new Map([['g2', { url: 'tcp://b.test:1', match_string: '' }]]),
      problems: [],
    });
  });

  it.each<{ name: string; outcome: ReadOutcome; says: string }>([
    {
      name: 'missing',
      outcome: { kind: 'missing' },
      says: `private definitions file ${file} not found — create it or choose another file`,
    },
    {
      name: 'denied',
      outcome: { kind: 'denied' },
      says: `private definitions file ${file} cannot be read: permission denied — let the user running the agent read it, or choose another file`,
    },
    {
      name: 'a folder',
      outcome: { kind: 'directory' },
      says: `private definitions file ${file} is a folder — choose the JSON file itself`,
    },
  ])('$name: no entries, whatever was loaded before', ({ outcome, says }) => {
    for (const previous of [emptyState(file), lastGood]) {
      const state = nextState(previous, outcome, now);
      expect(state).toEqual({ file, entries: new Map(), problems: [], fileError: says });
    }
  });

  it.each<{ name: string; outcome: ReadOutcome; says: string }>([
    {
      name: 'not JSON',
      outcome: { kind: 'text', text: '{"checks": [' },
      says: `private definitions file ${file}: not valid JSON at line 1 column 13`,
    },
    {
      name: 'wrong shape',
      outcome: { kind: 'text', text: '[]' },
      says: 'the file must hold an object with a "checks" array',
    },
    {
      name: 'too large',
      outcome: { kind: 'too-large', bytes: 20, maxBytes: 10 },
      says: 'is 20 bytes, more than the 10 that are read',
    },
    { name: 'not UTF-8', outcome: { kind: 'not-utf8' }, says: 'is not UTF-8 text — save it with UTF-8 encoding' },
    {
      name: 'still being written',
      outcome: { kind: 'unsettled', attempts: 5 },
      says: 'kept changing while it was read (5 tries)',
    },
    {
      name: 'other read error',
      outcome: { kind: 'failed', code: 'EIO' },
      says: 'could not be read (the disk reported an error)',
    },
  ])('$name: keeps the last good entries and says so', ({ outcome, says }) => {
    const kept = nextState(lastGood, outcome, now);
    expect(kept.entries).toBe(lastGood.entries);
    expect(kept.loadedAt).toBe(earlier);
    expect(kept.fileError).toContain(says);
    expect(kept.fileError).toContain('until then the last good version stays in use');
    // When it was read is loadedAt, said by each surface in its own time format, never as ISO text.
    expect(kept.fileError).not.toMatch(/\d{4}-\d\d-\d\dT|\bE[A-Z]{3,}\b/);

    const nothingBefore = nextState(emptyState(file), outcome, now);
    expect(nothingBefore.entries.size).toBe(0);
    expect(nothingBefore.fileError).toContain(says);
    expect(nothingBefore.fileError).not.toContain('last good version');
  });

  it('after the file went away there is no last good version to keep', () => {
    const gone = nextState(lastGood, { kind: 'missing' }, now);
    expect(nextState(gone, { kind: 'text', text: '{' }, now).entries.size).toBe(0);
  });
});

describe('sameContent', () => {
  it('ignores when the file was read', () => {
    expect(sameContent(lastGood, nextState(lastGood, { kind: 'text', text: good }, now))).toBe(true);
  });
  it.each([
    { name: 'another definition', text: JSON.stringify({ checks: [{ guid: 'g1', url: 'http://b.test' }] }) },
    { name: 'a new warning', text: JSON.stringify({ checks: [{ guid: 'g1', url: 'http://a.test', extra: 1 }] }) },
    { name: 'a file error', text: '{' },
  ])('sees $name', ({ text }) => {
    expect(sameContent(lastGood, nextState(lastGood, { kind: 'text', text }, now))).toBe(false);
  });
});
