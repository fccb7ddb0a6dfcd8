// Which synced checks the agent runs, and with what definition: the server's, or for a
// private-definition check the local file's entry merged over it (scheduling stays the server's).
import type { Job } from '../schedule/scheduler-api.ts';
import type { StoredCheck } from '../store/checks.ts';
import { privateSecrets } from '../results/privacy.ts';
import { definitionFieldNames, type CheckDefinition, type WireCheck } from '../wire/schemas.ts';

/**
 * A check as run: itself the scheduler's job (guid, interval, and monitor_count and monitor_rank,
 * how this monitor takes turns with others on the check), with no object of its own for the
 * sharing (40 bytes a check, issue 26).
 */
export interface RunnableCheck extends Job {
  name: string;
  /** result_detail_max_chars: the server's cap on error and sample. */
  maxChars: number;
  definition: CheckDefinition;
  /** Set for a private-definition check: what must be masked before anything is uploaded. */
  privateSecrets?: string[];
}

export interface RunnableSet {
  runnable: Map<string, RunnableCheck>;
  /** Private-definition checks the server assigned that have no local entry: not run. */
  missingPrivate: string[];
  /** Local entries whose guid the server has not assigned to this monitor. */
  unknownPrivate: string[];
  /** Active checks that cannot be scheduled, with the reason. */
  unschedulable: { guid: string; reason: string }[];
}

function definitionOf(check: WireCheck): CheckDefinition {
  const def: Record<string, unknown> = {};
  for (const field of definitionFieldNames) if (check[field] !== undefined) def[field] = check[field];
  return def as CheckDefinition;
}

/** An error of a private check's entry in the definitions file: the field and what to change. */
export interface EntryError {
  field?: string;
  /** "url must start with http://, https://, tcp:// or tls://" */
  detail?: string;
  message: string;
}

/** Why an active check is not run, or undefined when it is run. */
export type NotRunReason =
  | { kind: 'inactive'; enabled: boolean }
  | { kind: 'private-missing' }
  | { kind: 'private-invalid'; errors: readonly EntryError[] }
  | { kind: 'unschedulable'; reason: string };

/**
 * The one decision whether a stored check is run. `hasPrivateEntry` says whether the local
 * definitions file defines a guid: the running agent knows the file, `status --json` (another
 * process) knows the guids the agent recorded.
 */
export function notRunReason(
  stored: StoredCheck,
  hasPrivateEntry: (guid: string) => boolean,
  entryErrors: (guid: string) => readonly EntryError[] = () => [],
): NotRunReason | undefined {
  const { check, privateDefinition, active } = stored;
  if (!active) return { kind: 'inactive', enabled: check.enabled };
  // The server's definition is unusable (check-parse.ts): shown with the field, never run.
  if (check.invalid_definition !== undefined)
    return { kind: 'unschedulable', reason: `invalid definition: ${check.invalid_definition}` };
  if (check.interval_sec < 1)
    return { kind: 'unschedulable', reason: `interval_sec is ${check.interval_sec}; it must be at least 1` };
  if (privateDefinition && !hasPrivateEntry(check.guid)) {
    // An entry that is there but left out for its errors is not "missing": say what to fix.
    const errors = entryErrors(check.guid);
    return errors.length === 0 ? { kind: 'private-missing' } : { kind: 'private-invalid', errors };
  }
  return undefined;
}

export function describeNotRun(reason: NotRunReason): string {
  switch (reason.kind) {
    case 'inactive':
      return reason.enabled ? 'deleted on the server' : 'disabled on the server';
    case 'private-missing':
      return 'private check without a local definition: add it to the private definitions file';
    case 'private-invalid':
      return `its entry in the private definitions file cannot be used: ${reason.errors
        .map((e) => e.detail ?? e.message)
        .join('; ')}. Fix this in the file and save it: it is read again by itself`;
    case 'unschedulable':
      return reason.reason;
  }
}

export function runnableChecks(
  stored: readonly StoredCheck[],
  privateDefs: ReadonlyMap<string, CheckDefinition>,
): RunnableSet {
  const set: RunnableSet = { runnable: new Map(), missingPrivate: [], unknownPrivate: [], unschedulable: [] };
  const known = new Set<string>();
  for (const item of stored) {
    const { check, privateDefinition } = item;
    if (privateDefinition) known.add(check.guid);
    const reason = notRunReason(item, (guid) => privateDefs.has(guid));
    if (reason?.kind === 'private-missing') set.missingPrivate.push(check.guid);
    if (reason?.kind === 'unschedulable') set.unschedulable.push({ guid: check.guid, reason: reason.reason });
    if (reason !== undefined) continue;
    const base = {
      guid: check.guid,
      name: check.name,
      intervalMs: check.interval_sec * 1000,
      monitorCount: check.monitor_count,
      monitorRank: check.monitor_rank,
      maxChars: check.result_detail_max_chars,
    };
    const entry = privateDefinition ? privateDefs.get(check.guid) : undefined;
    // A private check's local entry supplies every definition field; nothing of the wiped server copy remains.
    set.runnable.set(
      check.guid,
      entry === undefined
        ? { ...base, definition: definitionOf(check) }
        : { ...base, definition: entry, privateSecrets: privateSecrets(entry) },
    );
  }
  for (const guid of privateDefs.keys()) if (!known.has(guid)) set.unknownPrivate.push(guid);
  return set;
}
