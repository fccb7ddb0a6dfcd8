// Where runs are probed: in the main thread, or in a probe thread once the checks ask for more
// runs a second than the main thread does well alone (probes/probe-thread.ts says why and what
// it costs). Decided per run from the demand, so a sync that adds or removes checks moves the
// next runs; a thread no longer needed is ended once it is idle, which gives its memory back.
import type { Logger } from '../base/log.ts';
import { probeThreadOldSpaceMb } from '../base/runtime-v8-flags.ts';
import { runProbe } from '../probes/index.ts';
import { createProbeThread, portable, type ProbeThread, type ProbeThreadOptions } from '../probes/probe-thread.ts';
import type { Probe } from '../probes/types.ts';

export interface ProbePlacementDeps {
  /** Runs a second the checks ask for (the scheduler's figure). */
  demand: () => number;
  /** From this many runs a second probes run in a thread of their own; Infinity: never. */
  threadFromRunsPerSec: number;
  log: Logger;
  /** Tests give thread scripts that fail or outgrow their memory. */
  threadEntry?: URL;
}

export interface ProbePlacement {
  probe: Probe;
  /** Whether a probe thread is running now. */
  threaded(): boolean;
  /** The probe thread's busy share since the previous call (run-cap.ts); undefined: no thread. */
  threadBusyShare(): number | undefined;
  /** Ends the thread (after the scheduler stopped: nothing is in flight). */
  close(): Promise<void>;
}

/** What the log says when the probes move (bench/agent reads them to label its rows). */
export const placementMessages = {
  toThread:
    'checks are probed in a thread of their own from now on: the main thread alone would fall behind at this many runs a second',
  toMain: 'checks are probed in the main thread again: they ask for fewer runs a second',
} as const;

/** Below this share of the threshold an idle thread is ended: a demand near it does not flap. */
const endBelowShare = 0.75;

export function createProbePlacement(deps: ProbePlacementDeps): ProbePlacement {
  let thread: ProbeThread | undefined;
  // After a thread failed once (a bug), runs stay in the main thread for the life of the process.
  let lost = false;
  // The thread's old generation is bounded (runtime-v8-flags.ts) until a thread outgrows it: the
  // next one gets the process's own limit, as the main thread has.
  let oldSpaceMb: number | undefined = probeThreadOldSpaceMb;

  function start(demand: number): ProbeThread {
    const options: ProbeThreadOptions = {
      onLost: (loss) => {
        thread = undefined;
        if (loss.kind === 'out-of-memory' && oldSpaceMb !== undefined) {
          // The agent adapting, not a fault: nothing for anyone to do.
          deps.log.info(
            { boundMb: oldSpaceMb },
            'the probe thread ran out of the memory it starts with; its runs were started again, and the next probe thread gets as much memory as the main thread',
          );
          oldSpaceMb = undefined;
          return;
        }
        lost = true;
        deps.log.error(
          { err: loss.reason },
          'the probe thread stopped unexpectedly; its runs were started again and checks are probed in the main thread from now on',
        );
      },
      oldSpaceMb,
      ...(deps.threadEntry === undefined ? {} : { entry: deps.threadEntry }),
    };
    deps.log.info({ runsPerSec: Math.round(demand) }, placementMessages.toThread);
    return createProbeThread(options);
  }

  function end(): void {
    const ending = thread;
    thread = undefined;
    if (ending === undefined) return;
    deps.log.info(placementMessages.toMain);
    void ending.close();
  }

  return {
    probe(def, ctx) {
      if (lost || !portable(ctx)) return runProbe(def, ctx);
      const demand = deps.demand();
      if (demand >= deps.threadFromRunsPerSec) {
        thread ??= start(demand);
        return thread.probe(def, ctx);
      }
      if (thread === undefined) return runProbe(def, ctx);
      // Between the two levels runs stay in the thread, so a demand near the threshold does not flap.
      if (demand >= deps.threadFromRunsPerSec * endBelowShare) return thread.probe(def, ctx);
      // Winding down: new runs here, and the thread ends once its last run is back.
      if (thread.inFlight() === 0) end();
      return runProbe(def, ctx);
    },
    threaded: () => thread !== undefined,
    threadBusyShare: () => thread?.busyShare(),
    async close() {
      const closing = thread;
      thread = undefined;
      await closing?.close();
    },
  };
}
