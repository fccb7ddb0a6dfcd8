// The `uptime-agent status --json` document: durable facts from the store (read-only, so that it
// works while another process runs the agent on the same data folder), and what only the running
// agent knows from its live-state.json (live/live-state-file.ts), when that is fresh.
import { effectiveInterval, sharedBy } from '../schedule/grid.ts';
import type { StoredIdentity } from '../identity/key-vault.ts';
import type { LiveStateDocument } from '../live/live-state-file.ts';
import { atOneMoment, currentSchemaVersion, schemaVersion, type Database } from '../store/database.ts';
import { listChecks } from '../store/checks.ts';
import { getMeta } from '../store/meta.ts';
import {
  lastResults,
  outageHistory,
  unsentCount,
  unsentPerMonitor,
  type LastResult,
  type OutageRecord,
} from '../store/results-view.ts';
import { serverAbsenceHistory, type ServerAbsence } from '../store/server-absences.ts';
import { noPrivateDefinitions, type PrivateDefinitionsSummary } from '../checks/private-definitions/index.ts';
import { notRunReason } from '../checks/runnable-checks.ts';
import { describeLocalFault } from '../base/local-fault.ts';
import { shownEarlierError } from '../results/privacy.ts';

export interface StatusReport {
  monitor_id: string | null;
  server: string | null;
  enrolled: boolean;
  sync_cursor: string | null;
  last_sync_at: string | null;
  /** This monitor's results waiting for the server. */
  unsent_results: number;
  /** Unsent results of monitors this agent was before a new enrollment: not sent unless reclaimed. */
  aside_results: { monitor_id: string; count: number }[];
  /** Results lost to a bound (the outbox's, or memory's while the disk was full). */
  dropped_results: number;
  /** Why the running agent cannot save results, in words (a full disk); null when it can. */
  store_problem: string | null;
  /** Results the running agent holds in memory because the store cannot take them. */
  unsaved_results: number;
  /** Runs are failing because this machine ran out of something (descriptors, memory), in words; null when not. */
  local_problem: string | null;
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
    /** The server's definition is unusable: the field at fault (the check is not run). */
    invalid_definition?: string;
    last_result?: LastResult;
  }[];
  /**
   * How far the server's clock (its Date header) was from this machine's at the last answer,
   * in seconds (positive: the server is ahead); null until the running agent measured it.
   */
  clock_skew_sec: number | null;
  outages: OutageRecord[];
  /**
   * Beyond design.md's fields (issue 25): the stretches the server could not be reached, newest
   * first (ended_at null while it lasts), with the last failure as data, what waited and what was
   * delivered after.
   */
  server_absences: ServerAbsence[];
  /**
   * Beyond design.md's fields: the running agent cannot keep up (schedule/load.ts), and the runs
   * it skipped since it started — a check still running when due again (overlap) or held behind
   * the concurrency cap (backlog). false and 0 when no agent is running.
   */
  overloaded: boolean;
  skipped_overlap: number;
  skipped_backlog: number;
  /**
   * Beyond design.md's fields, from the same sample: the runs the running agent started since it
   * started (runs due = runs_executed + skipped_overlap + skipped_backlog; two readings give the
   * runs due, executed and missed between their load_sampled_at), and the 99th percentile of how
   * late runs started after their due time over the last minute (ms, 1000 = a second or more;
   * null when none started). 0 and null when no agent is running.
   */
  runs_executed: number;
  schedule_lag_p99_ms: number | null;
  /**
   * Beyond design.md's fields, from the same sample: of runs_executed, those that started only
   * after waiting for a free slot under the concurrency cap. Their wait is part of the lag, so two
   * readings tell a lag of runs held by the cap from one of the agent's own timer firing late.
   */
  runs_waited_for_slot: number;
  /**
   * Beyond design.md's fields, from the same sample: the cap on runs at once,
   * agentDefaults.concurrency or, while the probe thread is the bottleneck, down to busyConcurrency
   * (runs/run-cap.ts); null when no agent is running.
   */
  run_cap: number | null;
  /** When the running agent took the sample these load figures come from; null when none is running. */
  load_sampled_at: string | null;
  /** Beyond design.md's fields: the private definitions file's state, problems by guid and field. */
  private_definitions: PrivateDefinitionsSummary;
  /**
   * The server as the running agent last found it (issue 25): connecting, connected, unreachable,
   * rejected (401) or disabled (403), since when, and its last successful call; null when no
   * enrolled agent is running.
   */
  connection: LiveStateDocument['connection'];
  /** When the running agent wrote what this report took from it; null when none is running. */
  live_state_written_at: string | null;
}

/**
 * Whether a check is runnable is the running agent's own decision (runnable-checks.ts), made
 * here from the guids its definitions file defined (the agent publishes those, never a definition).
 * `live` is the running agent's fresh live state (readLiveState), undefined when none runs. The
 * store is read at one moment: a running agent commits between two reads.
 */
export function statusReport(
  db: Database,
  identity: StoredIdentity | undefined,
  keyPresent: boolean,
  live?: LiveStateDocument,
): StatusReport {
  return atOneMoment(db, () => reportFrom(db, identity, keyPresent, live));
}

function reportFrom(
  db: Database,
  identity: StoredIdentity | undefined,
  keyPresent: boolean,
  live: LiveStateDocument | undefined,
): StatusReport {
  const load = live?.load ?? undefined;
  const privateDefinitions = live?.private_definitions ?? noPrivateDefinitions;
  const defined = new Set(privateDefinitions.defined);
  const last = lastResults(db);
  return {
    monitor_id: identity?.monitorId ?? null,
    server: identity?.server ?? null,
    enrolled: identity !== undefined && keyPresent,
    sync_cursor: getMeta(db, 'sync_cursor') ?? null,
    last_sync_at: getMeta(db, 'last_sync_at') ?? null,
    ...unsentByMonitor(db, identity?.monitorId),
    dropped_results: Number(getMeta(db, 'dropped_results') ?? '0'),
    store_problem: live?.store_problem ?? null,
    unsaved_results: live?.unsaved_results ?? 0,
    local_problem: localProblem(live),
    checks: listChecks(db).map((stored) => {
      const { check, privateDefinition } = stored;
      const lastResult = last.get(check.guid);
      return {
        guid: check.guid,
        name: check.name,
        enabled: check.enabled,
        interval_sec: check.interval_sec,
        effective_interval_sec: effectiveInterval(check.interval_sec, { monitorCount: check.monitor_count }),
        shared_by: sharedBy({ monitorCount: check.monitor_count }),
        private_definition: privateDefinition,
        runnable: notRunReason(stored, (guid) => defined.has(guid)) === undefined,
        ...(check.invalid_definition === undefined ? {} : { invalid_definition: check.invalid_definition }),
        // The store's entry, never masked: a private check's reason is left out, as on the window's rows.
        ...(lastResult === undefined
          ? {}
          : { last_result: { ...lastResult, error: shownEarlierError(lastResult.error, privateDefinition) } }),
      };
    }),
    clock_skew_sec: live?.clock_skew_sec ?? null,
    outages: outageHistory(db),
    server_absences: serverAbsenceHistory(db),
    overloaded: load?.overloaded ?? false,
    skipped_overlap: load?.skippedOverlap ?? 0,
    skipped_backlog: load?.skippedBacklog ?? 0,
    runs_executed: load?.executed ?? 0,
    schedule_lag_p99_ms: load?.lagP99Ms ?? null,
    runs_waited_for_slot: load?.startedAfterWait ?? 0,
    run_cap: load?.runCap ?? null,
    load_sampled_at: load?.sampled_at ?? null,
    private_definitions: privateDefinitions,
    connection: live?.connection ?? null,
    live_state_written_at: live?.written_at ?? null,
  };
}

/** A store not yet migrated by a newer agent has no per-row monitor: all of it is this monitor's. */
function unsentByMonitor(
  db: Database,
  monitorId: string | undefined,
): Pick<StatusReport, 'unsent_results' | 'aside_results'> {
  if (monitorId === undefined || schemaVersion(db) < currentSchemaVersion)
    return { unsent_results: unsentCount(db), aside_results: [] };
  const rows = unsentPerMonitor(db);
  return {
    unsent_results: rows.find((r) => r.monitor_id === monitorId)?.n ?? 0,
    aside_results: rows
      .filter((r) => r.monitor_id !== monitorId)
      .map((r) => ({ monitor_id: r.monitor_id, count: r.n })),
  };
}

/** Only a running agent's episode is true now: it comes with the rest of its live state. */
function localProblem(live: LiveStateDocument | undefined): string | null {
  const episode = live?.local_fault ?? undefined;
  return episode === undefined ? null : describeLocalFault(episode.fault, episode.runs);
}
