// Which synced checks the agent runs, and with what definition: the server's, or for a
// private-definition check the local file's entry merged over it (scheduling stays the server's).
import type { Sharing } from './schedule/grid.ts';
import type { StoredCheck } from './store/checks.ts';
import { privateSecrets } from './results/private-redaction.ts';
import { definitionFieldNames, type CheckDefinition, type WireCheck } from './wire/schemas.ts';

export interface RunnableCheck {
  guid: string;
  name: string;
  intervalMs: number;
  /** monitor_count and monitor_rank: how this monitor takes turns with others on the check. */
  sharing: Sharing;
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

export function runnableChecks(stored: readonly StoredCheck[], privateDefs: ReadonlyMap<string, CheckDefinition>): RunnableSet {
  const set: RunnableSet = { runnable: new Map(), missingPrivate: [], unknownPrivate: [], unschedulable: [] };
  const known = new Set<string>();
  for (const { check, privateDefinition, active } of stored) {
    if (privateDefinition) known.add(check.guid);
    if (!active) continue;
    if (check.interval_sec < 1) {
      set.unschedulable.push({ guid: check.guid, reason: `interval_sec is ${check.interval_sec}; it must be at least 1` });
      continue;
    }
    const base = {
      guid: check.guid,
      name: check.name,
      intervalMs: check.interval_sec * 1000,
      sharing: { monitorCount: check.monitor_count, monitorRank: check.monitor_rank },
      maxChars: check.result_detail_max_chars,
    };
    if (!privateDefinition) {
      set.runnable.set(check.guid, { ...base, definition: definitionOf(check) });
      continue;
    }
    const entry = privateDefs.get(check.guid);
    if (entry === undefined) {
      set.missingPrivate.push(check.guid);
      continue;
    }
    // The local entry supplies every definition field; nothing of the wiped server copy remains.
    set.runnable.set(check.guid, { ...base, definition: entry, privateSecrets: privateSecrets(entry) });
  }
  for (const guid of privateDefs.keys()) if (!known.has(guid)) set.unknownPrivate.push(guid);
  return set;
}
