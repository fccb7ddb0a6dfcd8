// Issue 14's goals next to the figures of one bench run, each marked met or not: CPU per probe
// (absolute and against the floor) at 1,000 checks and at saturation, the saturation rate, RSS at
// 1,000 and 5,000 checks, and schedule lag and missed runs at 80 % of saturation.
import type { AgentMeasured } from './agent-run.ts';
import { cpuPerProbeMs, probesPerSecond, type Measured } from './measure.ts';
import type { StackMemory } from './stack.ts';
import { fixed } from '../support.ts';

export const goalValues = {
  cpuPerProbeMs: 0.3,
  cpuVsFloor: 1.4,
  saturationPerS: 3_500,
  rssMbAt1000: 80,
  rssMbAt5000: 120,
  lagP99Ms: 20,
} as const;

/** Skipped runs from this share of the runs due mean "could not run everything" (the agent's own overload share). */
const missedShare = 0.01;

/** Runs missed in the window as a share of runs due: from the agent's figures, else from the target's count. */
export function missedFraction(m: AgentMeasured): number {
  if (typeof m.schedule !== 'string')
    return m.schedule.due === 0 ? 0 : (m.schedule.missedOverlap + m.schedule.missedBacklog) / m.schedule.due;
  return Math.max(0, 1 - probesPerSecond(m) / m.checks);
}

/** The run with the highest executed rate among those that could not run everything due. */
export function saturation(runs: readonly AgentMeasured[]): AgentMeasured | undefined {
  const saturated = runs.filter((m) => missedFraction(m) >= missedShare);
  return saturated.sort((a, b) => probesPerSecond(b) - probesPerSecond(a))[0];
}

export const saturationRule = `saturation = the highest probes/s among runs that missed >= ${missedShare * 100} % of the runs due`;

type Row = Record<string, string>;
const verdict = (met: boolean | undefined): string => (met === undefined ? '— not measured' : met ? 'met' : 'NOT met');

function goal(name: string, figure: string | undefined, met: boolean | undefined): Row {
  return { goal: name, figure: figure ?? '—', '': verdict(figure === undefined ? undefined : met) };
}

function cpuGoals(label: string, m: AgentMeasured | undefined, floor: Measured): Row[] {
  const cpu = m === undefined ? undefined : cpuPerProbeMs(m);
  const ratio = cpu === undefined ? undefined : cpu / cpuPerProbeMs(floor);
  return [
    goal(
      `CPU per probe <= ${goalValues.cpuPerProbeMs} ms ${label}`,
      cpu === undefined ? undefined : `${fixed(cpu, 2)} ms`,
      cpu !== undefined && cpu <= goalValues.cpuPerProbeMs,
    ),
    goal(
      `CPU per probe <= ${goalValues.cpuVsFloor}x the floor ${label}`,
      ratio === undefined ? undefined : `${fixed(ratio, 2)}x`,
      ratio !== undefined && ratio <= goalValues.cpuVsFloor,
    ),
  ];
}

export function goalRows(
  runs: readonly AgentMeasured[],
  floor: Measured,
  saturated: AgentMeasured | undefined,
  at80: AgentMeasured | undefined,
  stack: StackMemory,
): Row[] {
  const at = (n: number): AgentMeasured | undefined => runs.find((m) => m.checks === n);
  // Next to each RSS figure, what the stack alone weighs with the same threads, holding no check.
  const rss = (n: number, limit: number): Row => {
    const m = at(n);
    const alone =
      m?.probeThread === true
        ? `the stack alone with a second thread: ${fixed(stack.withThreadMb, 0)} MB`
        : `the stack alone: ${fixed(stack.rssMb, 0)} MB`;
    return goal(
      `RSS <= ${limit} MB at ${n.toLocaleString('en-US')} checks`,
      m === undefined ? undefined : `${fixed(m.rssMb, 0)} MB (${alone})`,
      m !== undefined && m.rssMb <= limit,
    );
  };
  const rate = saturated === undefined ? undefined : probesPerSecond(saturated);
  const schedule80 = at80 === undefined || typeof at80.schedule === 'string' ? undefined : at80.schedule;
  const lag = schedule80?.lagP99Ms;
  const missed = schedule80 === undefined ? undefined : schedule80.missedOverlap + schedule80.missedBacklog;
  return [
    ...cpuGoals('at 1,000 checks', at(1000), floor),
    ...cpuGoals('at saturation', saturated, floor),
    goal(
      `saturation >= ${goalValues.saturationPerS.toLocaleString('en-US')} probes/s`,
      rate === undefined ? undefined : `${Math.round(rate).toLocaleString('en-US')}/s`,
      rate !== undefined && rate >= goalValues.saturationPerS,
    ),
    rss(1000, goalValues.rssMbAt1000),
    rss(5000, goalValues.rssMbAt5000),
    goal(
      `schedule lag p99 <= ${goalValues.lagP99Ms} ms at 80 % of saturation`,
      lag === undefined || lag === null ? undefined : `${lag} ms`,
      lag !== undefined && lag !== null && lag <= goalValues.lagP99Ms,
    ),
    goal('0 missed runs at 80 % of saturation', missed === undefined ? undefined : String(missed), missed === 0),
  ];
}
