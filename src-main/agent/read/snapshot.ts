// The agent as the UI and the tray see it: one serialisable value, built from live state, the
// store and the in-memory per-check figures. Secrets never enter it: targets are redacted, a
// private check's target is not shown at all, and the API key is not part of it.
import type { CheckFigures } from '../store/check-stats.ts';
import { checkSchemeOf, type CheckScheme } from '../wire/check-schemes.ts';
import { countChecks, healthOf, type CheckCounts, type CheckHealth } from './check-health.ts';
import type { EnrollmentDetails } from '../identity/enrollment.ts';
import type { PrivateDefinitionsSummary } from '../checks/private-definitions/index.ts';
import { redactUrl } from '../probes/redact.ts';
import { describeNotRun, notRunReason } from '../checks/runnable-checks.ts';
import { effectiveInterval, sharedBy } from '../schedule/grid.ts';
import type { SchedulerStats } from '../schedule/scheduler.ts';
import {
  type AgentState,
  type AuthState,
  type ConnectionState,
  type LoopState,
  type UploadProgress,
} from '../live/state.ts';
import type { StoredCheck } from '../store/checks.ts';
import type { HistoryEntry } from '../store/history.ts';
import type { AsideResults, Outbox, RejectedResult } from '../store/outbox.ts';
import { problemsOf, type Problem } from './problems.ts';

export type { Problem, ProblemKind } from './problems.ts';

export type { CheckCounts, CheckHealth } from './check-health.ts';

export type CheckType = CheckScheme | 'private' | 'unknown';

export interface CheckView {
  guid: string;
  name: string;
  type: CheckType;
  /** Redacted target (password masked); "private" for a private-definition check. */
  target: string;
  intervalSec: number;
  /** How often this monitor runs it: interval_sec times the monitors taking turns on it. */
  effectiveIntervalSec: number;
  /** Monitors taking turns on the check (the server's monitor_count, at least 1). */
  sharedBy: number;
  enabled: boolean;
  privateDefinition: boolean;
  runnable: boolean;
  /** Why a check is not run, in words, when it is not. */
  notRunReason?: string;
  /** A private check whose entry in the definitions file has errors: each field and what to change. */
  entryErrors?: { field?: string; detail: string }[];
  health: CheckHealth;
  lastResult?: HistoryEntry;
  uptimePct?: number;
  /** Recent latencies in ms, oldest first. */
  latency: number[];
  /** Results of this check waiting in the outbox. */
  unsent: number;
  /** The latest runs for the heartbeat bar, oldest first: u up, d down, s skipped. */
  beats?: string;
  /** While down: when the current down episode began (the event log's). */
  downSince?: string;
  /** While it changes state often: since when, and how many changes so far (runs/flapping.ts). */
  flapping?: { since: string; changes: number };
}

export interface AgentSnapshot {
  version: string;
  takenAt: string;
  enrolled: boolean;
  identity?: { monitorId: string; server: string } & Partial<EnrollmentDetails>;
  keyProtection: 'os-encryption' | 'user-only-file';
  paused: boolean;
  auth: AuthState;
  connectivity: { online: boolean; offlineSince?: string; lastContactAt?: string; clockSkewSec?: number };
  /** The server as the agent last found it (live/state.ts), decided once in the agent. */
  connection: ConnectionState;
  /** The egress policy checks run under (issue 12 §3). */
  egressPolicy?: 'open' | 'strict';
  sync: LoopState & { cursor?: string };
  upload: LoopState & { progress?: UploadProgress };
  status: LoopState;
  ping: LoopState;
  outbox: {
    unsent: number;
    bytes: number;
    oldestRanAt?: string;
    dropped: number;
    rejectedCount: number;
    rejected: RejectedResult[];
    /** Unsent results of monitors this agent was before a new enrollment: sent only after a reclaim (absent: none). */
    aside?: AsideResults[];
  };
  /** Why results cannot be saved right now (a full disk), in words; absent while they can. */
  storeProblem?: string;
  skippedOffline: number;
  checks: CheckView[];
  counts: CheckCounts;
  privateDefinitions: PrivateDefinitionsSummary;
  problems: Problem[];
  scheduler?: SchedulerStats;
}

export function checkType(url: string, privateDefinition: boolean): CheckType {
  if (privateDefinition) return 'private';
  const protocol = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1];
  return (protocol === undefined ? undefined : checkSchemeOf(protocol)) ?? 'unknown';
}

/** Rejected results listed in a snapshot, newest first; the rest are counted. */
const rejectedShown = 50;

export function outboxFigures(outbox: Outbox): AgentSnapshot['outbox'] {
  const unsent = outbox.count();
  const aside = outbox.aside();
  return {
    unsent,
    bytes: outbox.bytes(),
    ...(unsent === 0 ? {} : { oldestRanAt: outbox.oldestRanAt() ?? '' }),
    dropped: outbox.dropped(),
    rejectedCount: outbox.rejectedCount(),
    rejected: outbox.rejected(rejectedShown),
    ...(aside.length === 0 ? {} : { aside }),
  };
}

export interface SnapshotInput {
  version: string;
  now: Date;
  state: AgentState;
  identity?: { monitorId: string; server: string; details?: EnrollmentDetails };
  keyProtection: AgentSnapshot['keyProtection'];
  cursor?: string;
  checks: readonly StoredCheck[];
  figures: (guid: string) => CheckFigures;
  /** A check's last result as its row shows it (read/last-runs.ts): a private check's masked. */
  lastResult: (guid: string, privateCheck: boolean) => HistoryEntry | undefined;
  downSince?: (guid: string) => string | undefined;
  flapping?: (guid: string) => { since: string; changes: number } | undefined;
  outbox: AgentSnapshot['outbox'];
  unsentPerCheck: ReadonlyMap<string, number>;
  privateDefinitions: PrivateDefinitionsSummary;
  scheduler?: SchedulerStats;
  /** Why the stored settings could not all be used (a damaged settings file). */
  settingsProblem?: string | undefined;
  egressPolicy?: 'open' | 'strict';
}

export function buildSnapshot(input: SnapshotInput): AgentSnapshot {
  const { state, privateDefinitions } = input;
  const probingStopped = state.paused || state.auth === 'monitor-disabled';
  const defined = new Set(privateDefinitions.defined);
  const entryErrors = (guid: string) =>
    privateDefinitions.problems.filter((p) => p.guid === guid && p.severity === 'error');
  const checks: CheckView[] = input.checks.map((stored) => {
    const { check, privateDefinition } = stored;
    const figures = input.figures(check.guid);
    const lastResult = input.lastResult(check.guid, privateDefinition);
    const reason = notRunReason(stored, (guid) => defined.has(guid), entryErrors);
    const view = {
      guid: check.guid,
      name: check.name,
      type: checkType(check.url, privateDefinition),
      target: privateDefinition ? 'private' : redactUrl(check.url),
      intervalSec: check.interval_sec,
      effectiveIntervalSec: effectiveInterval(check.interval_sec, { monitorCount: check.monitor_count }),
      sharedBy: sharedBy({ monitorCount: check.monitor_count }),
      enabled: check.enabled,
      privateDefinition,
      runnable: reason === undefined,
      ...(reason === undefined ? {} : { notRunReason: describeNotRun(reason) }),
      ...(reason?.kind === 'private-invalid'
        ? {
            entryErrors: reason.errors.map((e) => ({
              ...(e.field === undefined ? {} : { field: e.field }),
              detail: e.detail ?? e.message,
            })),
          }
        : {}),
      ...(lastResult === undefined ? {} : { lastResult }),
      ...(figures.uptimePct === undefined ? {} : { uptimePct: figures.uptimePct }),
      latency: figures.latency,
      ...(figures.beats === undefined || figures.beats === '' ? {} : { beats: figures.beats }),
      unsent: input.unsentPerCheck.get(check.guid) ?? 0,
    };
    const health = healthOf(view, probingStopped);
    const downSince = health === 'down' ? input.downSince?.(check.guid) : undefined;
    const flapping = view.runnable ? input.flapping?.(check.guid) : undefined;
    return {
      ...view,
      health,
      ...(downSince === undefined ? {} : { downSince }),
      ...(flapping === undefined ? {} : { flapping }),
    };
  });
  return {
    version: input.version,
    takenAt: input.now.toISOString(),
    enrolled: input.identity !== undefined,
    ...(input.identity === undefined
      ? {}
      : {
          identity: { monitorId: input.identity.monitorId, server: input.identity.server, ...input.identity.details },
        }),
    keyProtection: input.keyProtection,
    paused: state.paused,
    auth: state.auth,
    connectivity: {
      online: state.online,
      ...(state.offlineSince === undefined ? {} : { offlineSince: state.offlineSince }),
      ...(state.lastContactAt === undefined ? {} : { lastContactAt: state.lastContactAt }),
      ...(state.clockSkewSec === undefined ? {} : { clockSkewSec: state.clockSkewSec }),
    },
    connection: state.connection,
    sync: { ...state.loops.sync, ...(input.cursor === undefined ? {} : { cursor: input.cursor }) },
    upload: { ...state.loops.upload, ...(state.uploading === undefined ? {} : { progress: state.uploading }) },
    status: state.loops.status,
    ping: state.loops.ping,
    outbox: input.outbox,
    ...(state.storeProblem === undefined ? {} : { storeProblem: state.storeProblem }),
    skippedOffline: state.skippedOffline,
    checks,
    counts: countChecks(checks),
    privateDefinitions,
    problems: problemsOf(state, input.outbox, privateDefinitions, input.settingsProblem),
    ...(input.scheduler === undefined ? {} : { scheduler: input.scheduler }),
    ...(input.egressPolicy === undefined ? {} : { egressPolicy: input.egressPolicy }),
  };
}
