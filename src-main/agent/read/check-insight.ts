// What the window explains about checks beyond their last state: rollups per minute and hour
// (fed from each result commit once it has succeeded, written every 15 s), the event log of
// state changes (which is also where the down/recovered transitions come from), each check's last
// run explained, and "Run now" test runs, which are kept in the log as such and never reach the
// outbox.
import type { CheckSet } from '../checks/check-set.ts';
import type { ExtraProbeContext } from '../runs/check-runner.ts';
import { checkWindow, type CheckWindow, type WindowRange } from './check-window.ts';
import { untilNextTick, type Clock, type TimerHandle } from '../base/clock.ts';
import { silentLogger, type Logger } from '../base/log.ts';
import { housekeepingGridMs } from '../defaults.ts';
import { runProbe } from '../probes/index.ts';
import { shownError } from '../results/privacy.ts';
import { createLastRuns } from './last-runs.ts';
import { explainRun, type RunExplanation } from './run-explanation.ts';
import type { AgentState, LiveState } from '../live/state.ts';
import type { Database } from '../store/database.ts';
import { createEventLog, type AgentEvent } from '../store/events.ts';
import { newestEntries, type History, type HistoryEntry } from '../store/history.ts';
import { createRollups, type FlushOutcome, type RollupRun } from '../store/rollups.ts';
import {
  createTransitionTracker,
  type AgentConditions,
  type CheckTransition,
  type TransitionTracker,
} from '../runs/transitions.ts';

/** A "Run now": the run explained, or why the check cannot run here. */
/**
 * Why a test run did not happen, as a kind (the window chooses the words): the check is not run
 * by this agent now (unknown here, disabled, deleted, or a private check without a usable entry).
 */
export type TestRunRefusal = 'not-runnable';

export type TestRunResult = { ok: true; run: RunExplanation } | { ok: false; refused: TestRunRefusal };

export interface CheckInsightDeps {
  db: Database;
  /** Its journal is moved into its rings on the figures' timer (compactHistory). */
  history: Pick<History, 'compactionDue' | 'compactStep'>;
  clock: Clock;
  checkSet: Pick<CheckSet, 'runnable'>;
  /** The agent's live state: its episodes (offline, key refused…) follow it. */
  live: Pick<LiveState, 'get' | 'onChange'>;
  /** Read per run: a test run honours the same proxy, CA and egress policy as scheduled runs. */
  probeContext?: () => ExtraProbeContext;
  log?: Logger;
}

export interface CheckInsight {
  /**
   * Runs whose result commit succeeded (the result sink's onCommitted, once per commit): they
   * land in the rollups. Nothing sees a run before its commit, so a commit that is rolled back
   * (a full disk) and retried counts its runs once, and runs dropped unsaved never count.
   */
  committed(entries: readonly HistoryEntry[]): void;
  transitions: TransitionTracker;
  /** Tells every listener of a transition (the window, the tray, notifications). */
  announce: (transition: CheckTransition) => void;
  onTransition: (listener: (transition: CheckTransition) => void) => () => void;
  window(guid: string, range: WindowRange): CheckWindow;
  /** The check's last result as its row shows it (read/last-runs.ts). */
  lastResult(guid: string, privateCheck: boolean): HistoryEntry | undefined;
  events(options: { guid?: string; limit: number; beforeId?: number }): AgentEvent[];
  /** Runs a check once now; the explanation, or why it cannot run. Nothing is uploaded. */
  testRun(guid: string): Promise<TestRunResult>;
  /** The check left the check set: its rollups and events go too. */
  forget(guid: string): void;
  /** The agent stops: the rollups' last runs are written; call before the store closes. */
  close(): void;
}

export const insightDefaults = {
  /**
   * How often the rollups' unwritten runs go to the store: at the next tick of the housekeeping
   * grid (defaults.ts), with the load sample, so that an agent at rest wakes once for both.
   * Recording a run is then an update in memory, and at a 1 s interval a check's two rows are
   * written once per 15 runs instead of on every run (a check run less often than this still
   * costs its rows per run, at a rate that does not matter). The price: a crash loses
   * at most the last 15 s of rollup counts (about 0.4 % of an hour bucket; the results themselves
   * are in the outbox and the history). Reads and a stop write first, so neither ever sees less.
   */
  rollupFlushMs: housekeepingGridMs,
  /**
   * Rows per flush transaction: a transaction holds the event loop while it writes, and 1,000
   * checks leave 2,000 rows every flush (~10 ms in one go, more on a loaded machine; bench:rollups).
   * Slices of 250 (a few ms each) follow each other on the next turns, so a run due meanwhile is
   * not held up (schedule lag).
   */
  rollupFlushSlice: 250,
  /** Old rollup rows are dropped about once an hour, with a flush. */
  pruneEveryMs: 3_600_000,
};

const rollupRun = (e: HistoryEntry): RollupRun => ({
  guid: e.check_guid,
  ranAtMs: Date.parse(e.ran_at),
  success: e.success,
  skipped: e.skipped,
  latencyMs: e.latency_ms,
});

/** The conditions that make agent episodes, with the reason each is shown with. */
export function agentConditions(state: AgentState): AgentConditions {
  return {
    ...(state.online ? {} : { offline: 'neither the server nor any connectivity target answered' }),
    ...(state.auth === 'key-rejected' ? { 'key-rejected': 'the server refused this monitor’s API key' } : {}),
    ...(state.auth === 'monitor-disabled'
      ? { 'monitor-disabled': 'the server disabled this monitor; checks are paused' }
      : {}),
  };
}

export function createCheckInsight(
  deps: CheckInsightDeps,
  tunables: Partial<typeof insightDefaults> = {},
): CheckInsight {
  const settings = { ...insightDefaults, ...tunables };
  const logger = deps.log ?? silentLogger;
  const rollups = createRollups(deps.db);
  let flushTimer: TimerHandle | undefined;
  let flushFailing = false;
  let compactFailing = false;
  let closed = false;
  const log = createEventLog(deps.db);
  const lastRuns = createLastRuns();
  lastRuns.seed(newestEntries(deps.db));
  const now = (): Date => new Date(deps.clock.now());
  const tracker = createTransitionTracker(log, now);
  let prunedAt = deps.clock.now();

  /** Writes the rollups; a refusal (a full disk) keeps everything in memory for the next try. */
  function flushRollups(limit?: number): FlushOutcome {
    const outcome = rollups.flush(limit);
    if (!outcome.ok) {
      if (closed)
        logger.warn(
          { err: outcome.error },
          'the uptime and latency figures of the last few seconds could not be saved before stopping (the results themselves are kept)',
        );
      else if (!flushFailing)
        logger.warn(
          { err: outcome.error },
          'the uptime and latency figures could not be saved; they are kept in memory and saved again in a few seconds',
        );
      flushFailing = true;
      return outcome;
    }
    if (flushFailing) logger.info('the uptime and latency figures are saved again');
    flushFailing = false;
    return outcome;
  }

  /**
   * One step of moving the history's journal into its rings when it is due (store/history.ts),
   * with the figures' flush and on the same timer; returns whether steps are left. A refusal (a
   * full disk) leaves the journal as it is, for the next flush.
   */
  function compactHistory(): boolean {
    if (!deps.history.compactionDue()) return false;
    try {
      const left = deps.history.compactStep();
      compactFailing = false;
      return left;
    } catch (error) {
      if (!compactFailing)
        logger.warn({ err: error }, 'recent results could not be sorted into place; they are kept and sorted later');
      compactFailing = true;
      flushLater();
      return false;
    }
  }

  function flushLater(): void {
    if (flushTimer === undefined && !closed)
      flushTimer = deps.clock.setTimer(untilNextTick(deps.clock, settings.rollupFlushMs), timedFlush);
  }

  function timedFlush(): void {
    flushTimer = undefined;
    // Results first: while the result sink cannot commit (a full disk), the space freed goes to
    // results; the figures wait in memory.
    if (deps.live.get().storeProblem !== undefined) {
      flushLater();
      return;
    }
    const outcome = flushRollups(settings.rollupFlushSlice);
    if (!outcome.ok) {
      flushLater();
      return;
    }
    if (outcome.left > 0 || compactHistory()) {
      flushTimer = deps.clock.setTimer(0, timedFlush);
      return;
    }
    if (deps.clock.now() - prunedAt <= settings.pruneEveryMs) return;
    try {
      rollups.prune(deps.clock.now());
      prunedAt = deps.clock.now();
    } catch (error) {
      logger.warn(
        { err: error },
        'old uptime and latency figures could not be dropped; trying again with the next save',
      );
    }
  }
  let agentKey = '';
  const listeners = new Set<(transition: CheckTransition) => void>();

  deps.live.onChange(() => {
    const conditions = agentConditions(deps.live.get());
    const key = Object.keys(conditions).join(',');
    // Most changes (a result committed) leave the conditions as they were: no query then.
    if (key === agentKey) return;
    agentKey = key;
    tracker.agentState(conditions, now());
  });

  const transitions: TransitionTracker = {
    ...tracker,
    observe(run, outcome, at) {
      const secrets = run.skipped ? undefined : deps.checkSet.runnable().runnable.get(run.guid)?.privateSecrets;
      lastRuns.ran(run.guid, outcome, at.getTime(), run.skipped, run.error, secrets);
      return tracker.observe(run, outcome, at);
    },
    forget(guid) {
      lastRuns.forget(guid);
      tracker.forget(guid);
    },
  };

  return {
    committed(entries) {
      rollups.record(entries.map(rollupRun));
      flushLater();
    },
    transitions,
    announce: (transition) => {
      for (const listener of listeners) listener(transition);
    },
    onTransition: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    window: (guid, range) =>
      checkWindow({ rollups, events: log, lastRun: (g) => lastRuns.explained(g) }, guid, range, deps.clock.now()),
    lastResult: (guid, privateCheck) => lastRuns.row(guid, privateCheck),
    events: (options) => log.list(options),
    async testRun(guid) {
      const check = deps.checkSet.runnable().runnable.get(guid);
      if (check === undefined) return { ok: false, refused: 'not-runnable' };
      const ranAt = now();
      const outcome = await runProbe(check.definition, { ...deps.probeContext?.(), sampleChars: check.maxChars });
      const run = explainRun(
        outcome,
        ranAt,
        shownError(outcome.error, check.privateSecrets),
        true,
        check.privateSecrets,
      );
      const verdict = run.success ? 'passed' : `failed: ${run.error}`;
      log.note(
        { kind: 'test-run', guid, name: check.name },
        ranAt,
        `test run from the window ${verdict} (not uploaded)`,
      );
      return { ok: true, run };
    },
    forget(guid) {
      transitions.forget(guid);
      log.forget(guid);
      rollups.forget(guid);
    },
    close() {
      closed = true;
      flushTimer?.cancel();
      flushTimer = undefined;
      flushRollups();
    },
  };
}
