// Probing: the scheduler and the check runner, fed by the check set, with results going to the
// sink and "went down" / "recovered" transitions to the listeners. Paused while the user paused
// it or the server disabled this monitor.
import type { CheckSet } from '../checks/check-set.ts';
import { createCheckRunner, type ExtraProbeContext } from './check-runner.ts';
import { untilNextTick, type Clock, type TimerHandle } from '../base/clock.ts';
import type { AgentTunables } from '../defaults.ts';
import type { Logger } from '../base/log.ts';
import { giveBackAfterBursts } from '../base/heap-release.ts';
import { createProbePlacement, type ProbePlacement } from './probe-placement.ts';
import { createRunCap } from './run-cap.ts';
import type { ProbeOutcome } from '../probes/types.ts';
import { shownError } from '../results/privacy.ts';
import type { ResultSink } from '../results/result-sink.ts';
import { describeJump, type ClockJump } from '../schedule/clock-jump.ts';
import { createLoadWatch, type LoadReport } from '../schedule/load.ts';
import { createScheduler, type Scheduler, type SchedulerStats } from '../schedule/scheduler.ts';
import { createWakeWatch, type WakeWatch } from '../schedule/wake.ts';
import type { AgentState } from '../live/state.ts';
import type { CheckTransition, TransitionTracker } from './transitions.ts';

export interface ProbingDeps {
  clock: Clock;
  log: Logger;
  tunables: Pick<
    AgentTunables,
    | 'concurrency'
    | 'busyConcurrency'
    | 'startupSpreadMs'
    | 'stopGraceMs'
    | 'clockJumpThresholdMs'
    | 'clockWatchMs'
    | 'wakeGraceMs'
    | 'loadWindowMs'
    | 'loadSampleMs'
    | 'runBatchMs'
    | 'probeThreadFromRunsPerSec'
  >;
  checkSet: CheckSet;
  sink: ResultSink;
  monitorId: () => string;
  state: () => AgentState;
  skipsRun: (outcome: ProbeOutcome) => Promise<boolean>;
  /** Read per run, so that changed settings (proxy, CA, egress policy) apply to the next run. */
  probeContext?: () => ExtraProbeContext;
  /** Turns runs into transitions (and episodes of the event log). */
  transitions: TransitionTracker;
  onTransition: (transition: CheckTransition) => void;
  /** Whether probing keeps up, every loadSampleMs while it runs. */
  onLoad: (report: LoadReport) => void;
}

export interface Probing {
  start(): void;
  /** Stops starting runs; waits for those in flight (cancelled after the grace period). */
  stop(): Promise<void>;
  /** Applies the paused state (the user's pause, or the server disabling this monitor). */
  applyPause(): void;
  /** The check stopped being run: its transition state is freed. */
  forget(guid: string): void;
  stats(): SchedulerStats | undefined;
  /** A sleep or clock step reported from outside (the OS): rebase the grid, open the grace period. */
  clockJumped(jump: ClockJump): void;
  /** Right after a wake-up: a run that got no answer says nothing about its target. */
  inWakeGrace(): boolean;
}

export function createProbing(deps: ProbingDeps): Probing {
  const { transitions } = deps;
  let scheduler: Scheduler | undefined;
  let placement: ProbePlacement | undefined;
  let wake: WakeWatch | undefined;
  let loadTimer: TimerHandle | undefined;
  let heapWatch: (() => void) | undefined;

  /** Reads the scheduler's skip counts on a timer of its own, while probing runs. */
  function watchLoad(): void {
    const watch = createLoadWatch({ windowMs: deps.tunables.loadWindowMs });
    const sample = (): void => {
      if (scheduler === undefined) return;
      deps.onLoad(watch.record(deps.clock.monotonic(), { ...scheduler.stats(), lag: scheduler.lag() }));
      loadTimer = deps.clock.setTimer(untilNextTick(deps.clock, deps.tunables.loadSampleMs), sample);
    };
    // On the shared grid, with the clock watch and the key file poll: one wake-up for all three.
    loadTimer = deps.clock.setTimer(untilNextTick(deps.clock, deps.tunables.loadSampleMs), sample);
  }

  function applyPause(): void {
    const state = deps.state();
    if (state.paused || state.auth === 'monitor-disabled') scheduler?.pause();
    else scheduler?.resume();
  }

  function announce(transition: CheckTransition | undefined): void {
    if (transition !== undefined) deps.onTransition(transition);
  }

  return {
    start() {
      placement = createProbePlacement({
        demand: () => scheduler?.runsPerSecond() ?? 0,
        threadFromRunsPerSec: deps.tunables.probeThreadFromRunsPerSec,
        log: deps.log,
      });
      scheduler = createScheduler({
        clock: deps.clock,
        concurrency: deps.tunables.concurrency,
        cap: createRunCap({
          bounds: { most: deps.tunables.concurrency, least: deps.tunables.busyConcurrency },
          now: () => deps.clock.monotonic(),
          busyShare: () => placement?.threadBusyShare(),
        }),
        startupSpreadMs: deps.tunables.startupSpreadMs,
        clockJumpThresholdMs: deps.tunables.clockJumpThresholdMs,
        batchMs: deps.tunables.runBatchMs,
        onRunError: (guid, error) => deps.log.error({ err: error, guid }, 'a check run failed unexpectedly'),
        run: createCheckRunner({
          lookup: (guid) => deps.checkSet.runnable().runnable.get(guid),
          probe: placement.probe,
          sink: deps.sink,
          monitorId: deps.monitorId,
          skipsRun: deps.skipsRun,
          // The log and the window see the error as the UI may show it: a private target masked.
          onOutcome: (check, outcome, skipped, ranAt) =>
            announce(
              transitions.observe(
                { guid: check.guid, name: check.name, skipped, error: shownError(outcome.error, check.privateSecrets) },
                outcome,
                ranAt,
              ),
            ),
          ...(deps.probeContext === undefined ? {} : { probeContext: deps.probeContext }),
        }),
      });
      wake = createWakeWatch({
        clock: deps.clock,
        thresholdMs: deps.tunables.clockJumpThresholdMs,
        graceMs: deps.tunables.wakeGraceMs,
        checkEveryMs: deps.tunables.clockWatchMs,
        onJump: (jump) => {
          deps.log.info(
            { jump },
            `${describeJump(jump)}; checks continue on their schedule from now, missed runs are not made up`,
          );
          scheduler?.clockJumped();
        },
      });
      applyPause();
      deps.checkSet.feed(scheduler);
      watchLoad();
      heapWatch ??= giveBackAfterBursts(deps.log);
    },
    async stop() {
      loadTimer?.cancel();
      loadTimer = undefined;
      wake?.stop();
      wake = undefined;
      heapWatch?.();
      heapWatch = undefined;
      const stopping = scheduler;
      const placed = placement;
      scheduler = undefined;
      placement = undefined;
      if (stopping === undefined) return;
      deps.checkSet.feed(undefined);
      await stopping.stop(deps.tunables.stopGraceMs);
      await placed?.close();
    },
    applyPause,
    forget: (guid) => transitions.forget(guid),
    stats: () => scheduler?.stats(),
    clockJumped: (jump) => wake?.clockJumped(jump),
    inWakeGrace: () => wake?.inWakeGrace() ?? false,
  };
}
