// The resting row: a laptop's agent with 20 checks at a 60 s interval, left alone for a whole
// interval after a warm-up, so the window holds every check's run once and every background
// task's period that is a minute or shorter. Figures from /proc only (nothing asks the agent
// anything during the window: a status --json read would wake it): CPU per second of wall time
// and wakeups per second, counted as context switches of all its threads (proc-stats.ts says why).
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { withAgent } from './agent-run.ts';
import { contextSwitches, sampleProcess } from './proc-stats.ts';
import type { Target } from './target.ts';

export const resting = { checks: 20, intervalS: 60 } as const;

export interface RestingMeasured {
  checks: number;
  intervalS: number;
  windowS: number;
  cpuMsPerS: number;
  wakeupsPerS: number;
  voluntaryPerS: number;
  threads: number;
  rssMb: number;
  /** Requests the target served in the window: the checks' runs. */
  probes: number;
}

export function measureResting(
  cli: string,
  target: Target,
  folder: string,
  warmupS: number,
  windowS: number,
): Promise<RestingMeasured> {
  return withAgent(
    cli,
    resting.checks,
    target,
    folder,
    false,
    async (agent) => {
      await sleep(warmupS * 1000);
      const died = agent.gone();
      if (died !== undefined) throw new Error(`during the warm-up, ${died}`);
      const begin = { at: performance.now(), proc: sampleProcess(agent.pid), cs: contextSwitches(agent.pid) };
      const servedBefore = await target.served();
      await sleep(windowS * 1000);
      const end = { at: performance.now(), proc: sampleProcess(agent.pid), cs: contextSwitches(agent.pid) };
      const servedAfter = await target.served();
      const seconds = (end.at - begin.at) / 1000;
      const voluntary = end.cs.voluntary - begin.cs.voluntary;
      const nonvoluntary = end.cs.nonvoluntary - begin.cs.nonvoluntary;
      return {
        checks: resting.checks,
        intervalS: resting.intervalS,
        windowS: seconds,
        cpuMsPerS: (end.proc.cpuMs - begin.proc.cpuMs) / seconds,
        wakeupsPerS: (voluntary + nonvoluntary) / seconds,
        voluntaryPerS: voluntary / seconds,
        threads: end.proc.threads,
        rssMb: end.proc.rssMb,
        probes: servedAfter - servedBefore,
      };
    },
    resting.intervalS,
  );
}
