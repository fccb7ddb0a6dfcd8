// The private definitions file as users see it, in one shape for the UI snapshot and for
// `status --json` (which reads what the running agent recorded). Guids, names and problems
// only: never a definition value.
import type { RunnableSet } from '../runnable-checks.ts';
import type { DefinitionProblem } from './parse.ts';
import type { PrivateDefinitionsState } from './state.ts';

export interface CheckRef {
  guid: string;
  name: string;
}

export interface PrivateDefinitionsSummary {
  /** The file in use, absent when none is. */
  file?: string;
  /** When the entries in use were read. */
  loadedAt?: string;
  /** Why the file as it is on disk is not what is in use. */
  fileError?: string;
  /** Every guid the file defines. */
  defined: string[];
  /** Private checks of this monitor that have an entry and are run. */
  matched: CheckRef[];
  /** Private checks of this monitor without an entry: not run. */
  missing: CheckRef[];
  /** Private checks of this monitor whose entry has errors (in `problems`, by guid): not run. */
  invalid?: CheckRef[];
  /** Entries for guids this monitor does not have. */
  unknown: string[];
  problems: DefinitionProblem[];
}

export const noPrivateDefinitions: PrivateDefinitionsSummary = {
  defined: [],
  matched: [],
  missing: [],
  unknown: [],
  problems: [],
};

export function summarizePrivateDefinitions(
  state: PrivateDefinitionsState | undefined,
  runnable: RunnableSet,
  nameOf: (guid: string) => string,
): PrivateDefinitionsSummary {
  const named = (guid: string): CheckRef => ({ guid, name: nameOf(guid) });
  const defined = [...(state?.entries.keys() ?? [])];
  const problems = state?.problems ?? [];
  const broken = new Set(problems.filter((p) => p.severity === 'error').map((p) => p.guid));
  const invalid = runnable.missingPrivate.filter((guid) => broken.has(guid));
  return {
    ...(state === undefined ? {} : { file: state.file }),
    ...(state?.loadedAt === undefined ? {} : { loadedAt: state.loadedAt }),
    ...(state?.fileError === undefined ? {} : { fileError: state.fileError }),
    defined,
    matched: defined.filter((guid) => runnable.runnable.get(guid)?.privateSecrets !== undefined).map(named),
    missing: runnable.missingPrivate.filter((guid) => !broken.has(guid)).map(named),
    ...(invalid.length === 0 ? {} : { invalid: invalid.map(named) }),
    unknown: runnable.unknownPrivate,
    problems,
  };
}
