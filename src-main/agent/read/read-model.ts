// What the UI, the tray, the IPC handlers and the CLI read of a running agent: its snapshot, a
// check's recent runs and the outages. The store and the live parts behind them stay inside.
import type { AgentStore } from '../store/agent-store.ts';
import type { CheckSet } from '../checks/check-set.ts';
import type { IdentityHolder } from '../identity/identity.ts';
import type { KeyVault } from '../identity/key-vault.ts';
import type { SchedulerStats } from '../schedule/scheduler.ts';
import { buildSnapshot, outboxFigures, type AgentSnapshot } from './snapshot.ts';
import type { LiveState } from '../live/state.ts';
import type { HistoryEntry } from '../store/history.ts';
import { getMeta } from '../store/meta.ts';
import { outageHistory, type OutageRecord } from '../store/results-view.ts';
import { agentVersion } from '../base/version.ts';
import { serverAbsenceHistory, type ServerAbsence } from '../store/server-absences.ts';

export interface ReadModel {
  readonly snapshot: () => AgentSnapshot;
  /** The newest kept runs of a check, newest first. */
  readonly checkHistory: (guid: string, limit: number) => HistoryEntry[];
  /** Connectivity outages, newest first; the current one has ended_at null. */
  readonly outages: () => OutageRecord[];
  /** The server's absences (unreachable stretches), newest first; the current one has ended_at null. */
  readonly serverAbsences: () => ServerAbsence[];
}

export interface ReadModelDeps {
  store: AgentStore;
  live: LiveState;
  identity: Pick<IdentityHolder, 'view'>;
  checkSet: Pick<CheckSet, 'stored' | 'privateSummary'>;
  schedulerStats: () => SchedulerStats | undefined;
  keyProtection: KeyVault['protection'];
  now: () => Date;
  /** A check's last result as its row shows it (read/last-runs.ts). */
  lastResult: (guid: string, privateCheck: boolean) => HistoryEntry | undefined;
  /** When a down check's current episode began (the event log's). */
  downSince: (guid: string) => string | undefined;
  /** While a check flaps: since when and how many changes so far. */
  flapping?: (guid: string) => { since: string; changes: number } | undefined;
  /** The egress policy checks run under (shown in the window). */
  egressPolicy?: () => 'open' | 'strict';
  /** Why the stored settings could not all be used (a damaged settings file). */
  settingsProblem?: () => string | undefined;
}

export function createReadModel(deps: ReadModelDeps): ReadModel {
  const { db, outbox, history, stats } = deps.store;
  return {
    snapshot() {
      const scheduler = deps.schedulerStats();
      const identity = deps.identity.view();
      const cursor = getMeta(db, 'sync_cursor');
      return buildSnapshot({
        version: agentVersion,
        now: deps.now(),
        state: deps.live.get(),
        ...(identity === undefined ? {} : { identity }),
        keyProtection: deps.keyProtection,
        ...(cursor === undefined ? {} : { cursor }),
        checks: deps.checkSet.stored(),
        figures: (guid) => stats.figures(guid),
        lastResult: deps.lastResult,
        downSince: deps.downSince,
        ...(deps.flapping === undefined ? {} : { flapping: deps.flapping }),
        outbox: outboxFigures(outbox),
        unsentPerCheck: outbox.perCheck(),
        privateDefinitions: deps.checkSet.privateSummary(),
        ...(scheduler === undefined ? {} : { scheduler }),
        ...(deps.egressPolicy === undefined ? {} : { egressPolicy: deps.egressPolicy() }),
        settingsProblem: deps.settingsProblem?.(),
      });
    },
    checkHistory: (guid, limit) => history.recent(guid, limit),
    outages: () => outageHistory(db),
    serverAbsences: () => serverAbsenceHistory(db),
  };
}
