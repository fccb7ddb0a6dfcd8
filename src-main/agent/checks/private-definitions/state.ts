// What the agent uses after one read of the file. Pure. The rule: a file that is gone or that we
// may not read yields no entries (the user removed it or locked it on purpose); a file that is
// there but unusable right now (half saved, still being written) keeps the last good entries,
// so that saving in an editor never stops the checks for a moment.
import type { CheckDefinition } from '../../wire/schemas.ts';
import { parsePrivateDefinitions, type DefinitionProblem } from './parse.ts';
import type { ReadOutcome } from './read-settled.ts';

export interface PrivateDefinitionsState {
  /** Absolute path of the file. */
  file: string;
  /** When the entries in use were read (ISO 8601); absent when none were ever read or the file went away. */
  loadedAt?: string;
  entries: ReadonlyMap<string, CheckDefinition>;
  /** Problems of the entries in use. */
  problems: DefinitionProblem[];
  /** Why the file as it is now on disk is not what is in use; absent when it is. */
  fileError?: string;
  /** The system's error code of a failed read, for the log only (fileError says it in words). */
  readErrorCode?: string;
}

/** A read error the system reports, in words: the code itself goes to the log, not to the reader. */
const readErrorWords: Record<string, string> = {
  EIO: 'the disk reported an error',
  EBUSY: 'it is locked by another program',
  ETXTBSY: 'it is locked by another program',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  ELOOP: 'its path loops through links',
  ENAMETOOLONG: 'its path is too long',
};

export function emptyState(file: string): PrivateDefinitionsState {
  return { file, entries: new Map(), problems: [] };
}

export function nextState(
  previous: PrivateDefinitionsState,
  outcome: ReadOutcome,
  now: string,
): PrivateDefinitionsState {
  const { file } = previous;
  const named = `private definitions file ${file}`;
  switch (outcome.kind) {
    case 'text': {
      const parsed = parsePrivateDefinitions(outcome.text);
      if (parsed.fileError !== undefined) return keepLastGood(previous, `${named}: ${parsed.fileError}`);
      return { file, loadedAt: now, entries: parsed.entries, problems: parsed.problems };
    }
    case 'missing':
      return noEntries(file, `${named} not found — create it or choose another file`);
    case 'denied':
      return noEntries(
        file,
        `${named} cannot be read: permission denied — let the user running the agent read it, or choose another file`,
      );
    case 'directory':
      return noEntries(file, `${named} is a folder — choose the JSON file itself`);
    case 'not-a-file':
      return noEntries(
        file,
        `${named} is not a regular file (a device, pipe or socket) — choose the JSON file itself; it is read again when it changes`,
      );
    case 'too-large':
      return keepLastGood(
        previous,
        `${named} is ${outcome.bytes} bytes, more than the ${outcome.maxBytes} that are read — remove entries that are not needed`,
      );
    case 'not-utf8':
      return keepLastGood(previous, `${named} is not UTF-8 text — save it with UTF-8 encoding`);
    case 'unsettled':
      return keepLastGood(
        previous,
        `${named} kept changing while it was read (${outcome.attempts} tries) — it is read again once it stops changing`,
      );
    case 'failed':
      return {
        ...keepLastGood(
          previous,
          `${named} could not be read (${readErrorWords[outcome.code] ?? 'the system refused the read'}) — check the file and its folder; it is read again when it changes`,
        ),
        readErrorCode: outcome.code,
      };
  }
}

function noEntries(file: string, fileError: string): PrivateDefinitionsState {
  return { file, entries: new Map(), problems: [], fileError };
}

function keepLastGood(previous: PrivateDefinitionsState, fileError: string): PrivateDefinitionsState {
  if (previous.loadedAt === undefined) return noEntries(previous.file, fileError);
  // When it was read is loadedAt, which each surface says in its own time format: a raw
  // timestamp in this sentence reached the window as is.
  const { readErrorCode: _old, ...kept } = previous;
  return { ...kept, fileError: `${fileError}; until then the last good version stays in use` };
}

/** Whether two states differ in anything a user or the agent acts on (not in when it was read). */
export function sameContent(a: PrivateDefinitionsState, b: PrivateDefinitionsState): boolean {
  return a.fileError === b.fileError && fingerprint(a) === fingerprint(b);
}

// Kept in memory only, for comparison; it holds definition values and is never logged.
function fingerprint(state: PrivateDefinitionsState): string {
  return JSON.stringify([[...state.entries], state.problems]);
}
