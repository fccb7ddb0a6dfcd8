// The check set: what the server assigned (sync), the local private definitions, and the one
// decision of what is run, kept in step and fed to the scheduler. When a check goes away, the
// state kept for it elsewhere is freed through onGone.
import type { Logger } from '../base/log.ts';
import {
  openPrivateDefinitions,
  summarizePrivateDefinitions,
  type PrivateDefinitionsSource,
  type PrivateDefinitionsState,
  type PrivateDefinitionsSummary,
} from './private-definitions/index.ts';
import { runnableChecks, type RunnableSet } from './runnable-checks.ts';
import type { Scheduler } from '../schedule/scheduler.ts';
import type { ServiceCalls } from '../delivery/service-calls.ts';
import { listChecks, type StoredCheck } from '../store/checks.ts';
import type { Database } from '../store/database.ts';
import { syncOnce, type SyncOutcome } from './sync.ts';
import type { CallFailure } from '../identity/identity.ts';
import type { CheckDefinition } from '../wire/schemas.ts';

/** The part of the scheduler the check set feeds. */
export type ScheduleTarget = Pick<Scheduler, 'upsert' | 'remove'>;

export interface CheckSetDeps {
  db: Database;
  log: Logger;
  calls: ServiceCalls;
  /** Something users see changed (the check set or the definitions file). */
  onChanged: () => void;
  /** A check stopped being run (`stored: false`: it also left the check set). */
  onGone: (guid: string, stored: boolean) => void;
}

export interface CheckSet {
  runnable(): RunnableSet;
  stored(): StoredCheck[];
  /**
   * Whether the check is in the check set (run or not). A run that ends after its check left
   * (deleted, unassigned) brings none of its local state back (results/recording.ts).
   */
  holds(guid: string): boolean;
  privateDefinition(guid: string): CheckDefinition | undefined;
  privateSummary(): PrivateDefinitionsSummary;
  /** Uses (loads and watches) a private definitions file; undefined stops using one. */
  useFile(file: string | undefined): Promise<void>;
  reload(): Promise<void>;
  /** Recomputes what runs from the store (after the store changed under it). */
  refresh(): void;
  /** One sync round; concurrent callers run one after the other. */
  sync(signal?: AbortSignal): Promise<SyncOutcome | CallFailure>;
  /** Feeds the runnable checks to a scheduler (undefined: none any more). */
  feed(target: ScheduleTarget | undefined): void;
  close(): void;
}

export function createCheckSet(deps: CheckSetDeps): CheckSet {
  let source: PrivateDefinitionsSource | undefined;
  let privateState: PrivateDefinitionsState | undefined;
  let stored: StoredCheck[] = [];
  /** The guids of `stored` (holds() reads it). */
  let held: ReadonlySet<string> = new Set<string>();
  let runnable: RunnableSet = runnableChecks([], new Map());
  let summary: PrivateDefinitionsSummary = summarizePrivateDefinitions(undefined, runnable, (guid) => guid);
  let target: ScheduleTarget | undefined;
  /** What the target was fed last: the runnable checks of the refresh that fed it (no copy of their guids). */
  let scheduled: ReadonlyMap<string, unknown> = new Map();
  let syncChain: Promise<unknown> = Promise.resolve();

  function refresh(): void {
    const before = held;
    stored = listChecks(deps.db);
    held = new Set(stored.map((s) => s.check.guid));
    runnable = runnableChecks(stored, privateState?.entries ?? new Map());
    // The summary names a few checks, once: the names are not kept beside the stored checks.
    const names = new Map(stored.map((s) => [s.check.guid, s.check.name]));
    summary = summarizePrivateDefinitions(privateState, runnable, (guid) => names.get(guid) ?? guid);
    for (const check of runnable.runnable.values()) target?.upsert(check);
    for (const guid of scheduled.keys()) {
      if (runnable.runnable.has(guid)) continue;
      target?.remove(guid);
      deps.onGone(guid, held.has(guid));
    }
    for (const guid of before) if (!held.has(guid) && !scheduled.has(guid)) deps.onGone(guid, false);
    scheduled = target === undefined ? new Map() : runnable.runnable;
    deps.onChanged();
  }

  function applyPrivate(next: PrivateDefinitionsState | undefined): void {
    privateState = next;
    refresh();
  }

  async function syncRound(signal?: AbortSignal): Promise<SyncOutcome | CallFailure> {
    const outcome = await deps.calls.call('sync', signal, (client, apiKey, s) =>
      syncOnce({ db: deps.db, client, apiKey, log: deps.log, ...(s === undefined ? {} : { signal: s }) }),
    );
    if (outcome.ok && outcome.summary.received > 0) {
      deps.log.info({ ...outcome.summary }, 'checks synced');
      refresh();
    }
    return outcome;
  }

  return {
    runnable: () => runnable,
    stored: () => stored,
    holds: (guid) => held.has(guid),
    privateDefinition: (guid) => privateState?.entries.get(guid),
    privateSummary: () => summary,
    async useFile(file) {
      if (file === undefined) {
        source?.close();
        source = undefined;
        return applyPrivate(undefined);
      }
      // The new file's changes apply only once it is taken on (below).
      let taken = false;
      const next = await openPrivateDefinitions({
        file,
        log: deps.log,
        onChange: (state) => taken && applyPrivate(state),
      });
      const first = next.current();
      // A missing or broken file never replaces definitions in force: they stay, and the error is said.
      if (
        first.fileError !== undefined &&
        privateState?.loadedAt !== undefined &&
        privateState.fileError === undefined
      ) {
        next.close();
        throw new PrivateFileRefused(first.fileError, privateState.file);
      }
      taken = true;
      source?.close();
      source = next;
      applyPrivate(first);
    },
    async reload() {
      await source?.reload();
    },
    refresh,
    sync(signal) {
      const next = syncChain.then(() => syncRound(signal));
      syncChain = next.catch(() => undefined);
      return next;
    },
    feed(next) {
      target = next;
      scheduled = new Map();
      refresh();
    },
    close() {
      source?.close();
      source = undefined;
    },
  };
}

/** A missing or broken definitions file was not taken on: why (the reader's words), and which file stays in force. */
export class PrivateFileRefused extends Error {
  readonly fileError: string;
  readonly inForce: string | undefined;
  constructor(fileError: string, inForce: string | undefined) {
    super(`${fileError}. The definitions from ${inForce ?? 'before'} stay in force`);
    this.name = 'PrivateFileRefused';
    this.fileError = fileError;
    this.inForce = inForce;
  }
}
