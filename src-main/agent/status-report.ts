// The `uptime-agent status --json` document, read from the store alone so that it works while
// another process runs the agent on the same data folder.
import { agentDefaults } from './defaults.ts';
import { readEnrollment } from './enrollment.ts';
import { readLoad } from './load-state.ts';
import { sharedBy } from './schedule/grid.ts';
import type { Database } from './store/database.ts';
import { listChecks } from './store/checks.ts';
import { getMeta } from './store/meta.ts';
import { lastResults, outageHistory, unsentCount, type LastResult, type OutageRecord } from './store/results-view.ts';
import { noPrivateDefinitions, type PrivateDefinitionsSummary } from './private-definitions/index.ts';
import { notRunReason } from './runnable-checks.ts';

export interface StatusReport {
  monitor_id: string | null;
  server: string | null;
  enrolled: boolean;
  sync_cursor: string | null;
  last_sync_at: string | null;
  unsent_results: number;
  checks: {
    guid: string;
    name: string;
    enabled: boolean;
    interval_sec: number;
    /** How often this monitor runs it: interval_sec times shared_by (monitors taking turns). */
    effective_interval_sec: number;
    shared_by: number;
    private_definition: boolean;
    runnable: boolean;
    last_result?: LastResult;
  }[];
  outages: OutageRecord[];
  /**
   * Beyond design.md's fields: the running agent cannot keep up (schedule/load.ts), and the runs
   * it skipped since it started — a check still running when due again (overlap) or held behind
   * the concurrency cap (backlog). false and 0 when no agent is running.
   */
  overloaded: boolean;
  skipped_overlap: number;
  skipped_backlog: number;
  /** Beyond design.md's fields: the private definitions file's state, problems by guid and field. */
  private_definitions: PrivateDefinitionsSummary;
}

/**
 * Whether a check is runnable is the running agent's own decision (runnable-checks.ts), made
 * here from the guids its definitions file defined (the agent records those, never a definition).
 */
/** A recorded load older than this belongs to an agent that is gone: a few missed samples. */
const loadFreshMs = 3 * agentDefaults.loadSampleMs;

export function statusReport(db: Database, keyPresent: boolean, nowMs = Date.now()): StatusReport {
  const load = readLoad(db, nowMs, loadFreshMs);
  const enrollment = readEnrollment(db);
  const raw = getMeta(db, 'private_definitions');
  const privateDefinitions = raw === undefined ? noPrivateDefinitions : (JSON.parse(raw) as PrivateDefinitionsSummary);
  const defined = new Set(privateDefinitions.defined);
  const last = lastResults(db);
  return {
    monitor_id: enrollment?.monitorId ?? null,
    server: enrollment?.server ?? null,
    enrolled: enrollment !== undefined && keyPresent,
    sync_cursor: getMeta(db, 'sync_cursor') ?? null,
    last_sync_at: getMeta(db, 'last_sync_at') ?? null,
    unsent_results: unsentCount(db),
    checks: listChecks(db).map((stored) => {
      const { check, privateDefinition } = stored;
      const lastResult = last.get(check.guid);
      const shared = sharedBy({ monitorCount: check.monitor_count });
      return {
        guid: check.guid,
        name: check.name,
        enabled: check.enabled,
        interval_sec: check.interval_sec,
        effective_interval_sec: check.interval_sec * shared,
        shared_by: shared,
        private_definition: privateDefinition,
        runnable: notRunReason(stored, (guid) => defined.has(guid)) === undefined,
        ...(lastResult === undefined ? {} : { last_result: lastResult }),
      };
    }),
    outages: outageHistory(db),
    overloaded: load?.overloaded ?? false,
    skipped_overlap: load?.skippedOverlap ?? 0,
    skipped_backlog: load?.skippedBacklog ?? 0,
    private_definitions: privateDefinitions,
  };
}
