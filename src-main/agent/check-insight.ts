// What the window explains about checks beyond their last state: rollups per minute and hour
// (fed from the same commit as the history), the event log of state changes (which is also where
// the down/recovered transitions come from), each check's last run explained, and "Run now" test
// runs, which are kept in the log as such and never reach the outbox.
import type { CheckSet } from './check-set.ts';
import type { ExtraProbeContext } from './check-runner.ts';
import { checkWindow, type CheckWindow, type WindowRange } from './check-window.ts';
import type { Clock } from './clock.ts';
import { runProbe } from './probes/index.ts';
import { shownError } from './results/privacy.ts';
import { explainRun, type RunExplanation } from './run-explanation.ts';
import type { AgentState, LiveState } from './state.ts';
import type { Database } from './store/database.ts';
import { createEventLog, type AgentEvent } from './store/events.ts';
import type { History, HistoryEntry } from './store/history.ts';
import { createRollups, type RollupRun } from './store/rollups.ts';
import { createTransitionTracker, type AgentConditions, type CheckTransition, type TransitionTracker } from './transitions.ts';

/** A "Run now": the run explained, or why the check cannot run here. */
export type TestRunResult = { ok: true; run: RunExplanation } | { ok: false; error: string };

export interface CheckInsightDeps {
  db: Database;
  history: History;
  clock: Clock;
  checkSet: Pick<CheckSet, 'runnable'>;
  /** The agent's live state: its episodes (offline, key refused…) follow it. */
  live: Pick<LiveState, 'get' | 'onChange'>;
  /** Read per run: a test run honours the same proxy, CA and egress policy as scheduled runs. */
  probeContext?: () => ExtraProbeContext;
}

export interface CheckInsight {
  /** The history the result sink writes through: every committed run also lands in the rollups. */
  history: History;
  transitions: TransitionTracker;
  /** Tells every listener of a transition (the window, the tray, notifications). */
  announce: (transition: CheckTransition) => void;
  onTransition: (listener: (transition: CheckTransition) => void) => () => void;
  window(guid: string, range: WindowRange): CheckWindow;
  events(options: { guid?: string; limit: number; beforeId?: number }): AgentEvent[];
  /** Runs a check once now; the explanation, or why it cannot run. Nothing is uploaded. */
  testRun(guid: string): Promise<TestRunResult>;
  /** The check left the check set: its rollups and events go too. */
  forget(guid: string): void;
}

/** Old rollup rows are dropped about once an hour, inside a result commit. */
const pruneEveryMs = 3_600_000;

const rollupRun = (e: HistoryEntry): RollupRun => ({ guid: e.check_guid, ranAtMs: Date.parse(e.ran_at), success: e.success, skipped: e.skipped, latencyMs: e.latency_ms });

/** The conditions that make agent episodes, with the reason each is shown with. */
export function agentConditions(state: AgentState): AgentConditions {
  return {
    ...(state.online ? {} : { offline: 'neither the server nor any connectivity target answered' }),
    ...(state.auth === 'key-rejected' ? { 'key-rejected': 'the server refused this monitor’s API key' } : {}),
    ...(state.auth === 'monitor-disabled' ? { 'monitor-disabled': 'the server disabled this monitor; checks are paused' } : {}),
  };
}

export function createCheckInsight(deps: CheckInsightDeps): CheckInsight {
  const rollups = createRollups(deps.db);
  const log = createEventLog(deps.db);
  const lastRuns = new Map<string, RunExplanation>();
  const now = (): Date => new Date(deps.clock.now());
  const tracker = createTransitionTracker(log, now);
  let prunedAt = deps.clock.now();
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
      if (!run.skipped) lastRuns.set(run.guid, explainRun(outcome, at, run.error, false));
      return tracker.observe(run, outcome, at);
    },
    forget(guid) {
      lastRuns.delete(guid);
      tracker.forget(guid);
    },
  };

  return {
    history: {
      ...deps.history,
      insert(entries) {
        deps.history.insert(entries);
        rollups.record(entries.map(rollupRun));
        if (deps.clock.now() - prunedAt > pruneEveryMs) {
          prunedAt = deps.clock.now();
          rollups.prune(prunedAt);
        }
      },
    },
    transitions,
    announce: (transition) => {
      for (const listener of listeners) listener(transition);
    },
    onTransition: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    window: (guid, range) => checkWindow({ rollups, events: log, lastRun: (g) => lastRuns.get(g) }, guid, range, deps.clock.now()),
    events: (options) => log.list(options),
    async testRun(guid) {
      const check = deps.checkSet.runnable().runnable.get(guid);
      if (check === undefined) return { ok: false, error: 'this check is not run by this agent (disabled, deleted, or without its local definition), so it cannot be run now' };
      const ranAt = now();
      const outcome = await runProbe(check.definition, { ...deps.probeContext?.(), sampleChars: check.maxChars });
      const run = explainRun(outcome, ranAt, shownError(outcome.error, check.privateSecrets), true);
      const verdict = run.success ? 'passed' : `failed: ${run.error}`;
      log.note({ kind: 'test-run', guid, name: check.name }, ranAt, `test run from the window ${verdict} (not uploaded)`);
      return { ok: true, run };
    },
    forget(guid) {
      transitions.forget(guid);
      log.forget(guid);
      rollups.forget(guid);
    },
  };
}
