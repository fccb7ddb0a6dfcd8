// The resting row: a laptop's agent with 20 checks at a 60 s interval, left alone for whole
// intervals after a warm-up (main.ts says how many), so the window holds each check's runs and
// each background task about as often as their periods say. Figures from /proc only
// (nothing asks the agent anything during the window: a status --json read would wake it): CPU
// per second of wall time (to the nanosecond: proc-stats.ts readThreads, also split by thread) and wakeups
// per second, counted as context switches of all its threads (proc-stats.ts says why).
// Beside it, over the same window, a bare Node timer (wake-reference.js) prices a wake-up alone on
// this machine: the agent's CPU at rest is mostly wake-ups, and their price differs between machines.
// And a bare Node prober (rest-prober.js) sends the same number of probes a minute to the same
// target through Node's HTTP client, nothing else; a second one sends them through the agent's own
// built probe, so that the row tells what its probes cost from what its commits, calls to the
// server and housekeeping cost; a third writes the same request on a bare socket and parses
// nothing: the resting row's floor, what this machine charges for the exchanges themselves, as the
// raw prober is the floor under load.
import type { ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { withAgent } from './agent-run.ts';
import { ask, startChild, stopChild } from './children.ts';
import {
  allThreadsCpuMs,
  contextSwitches,
  switchesBetween,
  readThreads,
  sampleProcess,
  threadRoles,
  threadTimesPerSecond,
  type ProcSample,
  type Switches,
  type ThreadRole,
  type ThreadsReading,
} from './proc-stats.ts';
import { benchCheck } from './bench-checks.ts';
import { commandLaunch } from './stack.ts';
import type { Target } from './target.ts';

/** The reference wakes every 400 ms: about the agent's own rate at rest (2.3-2.8 wake-ups a second). */
export const resting = { checks: 20, intervalS: 60, referencePeriodMs: 400 } as const;

/** CPU and wake-ups of one process over a window. */
export interface Quiet {
  cpuMsPerS: number;
  wakeupsPerS: number;
  voluntaryPerS: number;
}

export interface RestingMeasured extends Quiet {
  /** The window began this many seconds after the agent started. */
  fromS: number;
  checks: number;
  intervalS: number;
  windowS: number;
  threads: number;
  /**
   * The agent's CPU per second by thread (proc-stats.ts threadRole): V8's helpers mark and sweep
   * for a full GC, so a window that holds one reads higher there (docs/performance.md).
   */
  threadsMsPerS: Record<ThreadRole, number>;
  rssMb: number;
  /** Requests the target served in the window: the checks' runs. */
  probes: number;
  /** Requests the agent sent its server in the window (syncs, statuses, uploads, pings): exchanges too. */
  calls: number;
  /** The bare timer (wake-reference.js) over the same window. */
  reference: Quiet & { periodMs: number };
  /** The bare prober (rest-prober.js) over the same window: the same probes a minute, nothing else. */
  prober: ProberFigures;
  /** The same through the agent's own built probe (rest-prober.js with its module): its probes alone. */
  agentProbes: ProberFigures & { failed: number };
  /** The same request on a bare socket, nothing parsed (rest-prober.js raw): the exchanges alone. */
  rawExchanges: ProberFigures;
}

/** One of the probers beside the agent (rest-prober.js): its pace, and the requests it sent in the window. */
export interface ProberFigures extends Quiet {
  periodMs: number;
  probes: number;
}

interface Reading {
  at: number;
  proc: ProcSample;
  /** Each thread's time to the nanosecond, not in the 10 ms ticks of proc.cpuMs. */
  threads: ThreadsReading;
  /** Each thread's context switches so far: the wakeups. */
  switches: Map<number, Switches>;
}

function read(pid: number): Reading {
  return {
    at: performance.now(),
    proc: sampleProcess(pid),
    threads: readThreads(pid),
    switches: contextSwitches(pid),
  };
}

const threadsPerS = (begin: Reading, end: Reading): ReturnType<typeof threadTimesPerSecond> =>
  threadTimesPerSecond(begin.threads, end.threads, (end.at - begin.at) / 1000);

/** CPU per second of each kind of thread, from threadsPerS. */
const cpuByRole = (perS: ReturnType<typeof threadTimesPerSecond>): Record<ThreadRole, number> =>
  Object.fromEntries(threadRoles.map((role) => [role, perS[role].cpuMs])) as Record<ThreadRole, number>;

function between(begin: Reading, end: Reading, perS = threadsPerS(begin, end)): Quiet {
  const seconds = (end.at - begin.at) / 1000;
  const { voluntary, nonvoluntary } = switchesBetween(begin.switches, end.switches);
  return {
    cpuMsPerS: allThreadsCpuMs(perS),
    wakeupsPerS: (voluntary + nonvoluntary) / seconds,
    voluntaryPerS: voluntary / seconds,
  };
}

/** A wake-up's price on this machine, from the reference: its CPU per wake-up, in ms. */
export const wakeupMs = (reference: Quiet): number => reference.cpuMsPerS / reference.wakeupsPerS;

/** What the agent's wake-ups alone come to at that price, in ms of CPU a second. */
export const wakeupsCostMsPerS = (rest: RestingMeasured): number => rest.wakeupsPerS * wakeupMs(rest.reference);

/** Requests a prober has sent so far, and how many of the agent's probes failed (it answers over IPC). */
const sentBy = (prober: ChildProcess): Promise<{ sent: number; failed: number }> => ask(prober, 'sent');

/** The agent's probes module in the build whose command is `cli` (dist/main/cli/main.js), as a URL. */
const builtProbes = (cli: string): string => pathToFileURL(resolve(dirname(cli), '../agent/probes/index.js')).href;

/** What one probe of a prober costs, in ms of CPU: an isolated exchange's price here. */
export const msPerProbe = (rest: RestingMeasured, prober: ProberFigures): number =>
  (prober.cpuMsPerS * rest.windowS) / Math.max(1, prober.probes);

/**
 * What the agent's exchanges alone come to at the bare socket's price, in ms of CPU a second: its
 * probes and its calls to the server, each a connection opened, a request written, an answer read.
 */
export const exchangesMsPerS = (rest: RestingMeasured): number =>
  (msPerProbe(rest, rest.rawExchanges) * (rest.probes + rest.calls)) / rest.windowS;

/** A window of the resting agent's life: from this many seconds after its start, for this long. */
export interface RestWindow {
  fromS: number;
  lengthS: number;
}

/** The resting agent over each window in turn (in order, not overlapping), all in one life. */
export function measureResting(
  cli: string,
  target: Target,
  folder: string,
  windows: readonly RestWindow[],
): Promise<RestingMeasured[]> {
  return withAgent(
    cli,
    resting.checks,
    target,
    folder,
    false,
    async (agent) => {
      // The windows count from here: the agent was started just before.
      const startedAt = performance.now();
      // Both references run with the command's own V8 flags and environment, read from its first line.
      const launch = commandLaunch(cli);
      const startReference = (name: string, args: readonly string[], ipc: boolean): ChildProcess =>
        startChild(process.execPath, [...launch.nodeArgs, new URL(name, import.meta.url).pathname, ...args], {
          stdio: ipc ? ['ignore', 'ignore', 'inherit', 'ipc'] : 'ignore',
          env: { ...process.env, ...launch.env },
        });
      const reference = startReference('./wake-reference.js', [String(resting.referencePeriodMs)], false);
      const proberPeriodMs = (resting.intervalS * 1000) / resting.checks;
      const prober = startReference('./rest-prober.js', [target.url, String(proberPeriodMs)], true);
      const agentProber = startReference(
        './rest-prober.js',
        [
          target.url,
          String(proberPeriodMs),
          builtProbes(cli),
          JSON.stringify(benchCheck(0, target.url, resting.intervalS)),
        ],
        true,
      );
      const rawProber = startReference('./rest-prober.js', [target.url, String(proberPeriodMs), 'raw'], true);
      const readAll = () => ({
        agent: read(agent.pid),
        reference: read(reference.pid ?? 0),
        prober: read(prober.pid ?? 0),
        agentProber: read(agentProber.pid ?? 0),
        rawProber: read(rawProber.pid ?? 0),
      });
      const sentByAll = () => Promise.all([sentBy(prober), sentBy(agentProber), sentBy(rawProber)]);
      const measured: RestingMeasured[] = [];
      try {
        for (const window of windows) {
          await sleep(Math.max(0, startedAt + window.fromS * 1000 - performance.now()));
          const died = agent.gone();
          if (died !== undefined) throw new Error(`before the window from ${window.fromS} s, ${died}`);
          // Asked outside the window: the question wakes the prober.
          const [sentBefore, agentSentBefore, rawSentBefore] = await sentByAll();
          const begin = readAll();
          const servedBefore = await target.served();
          const callsBefore = await agent.calls();
          await sleep(window.lengthS * 1000);
          const end = readAll();
          const servedAfter = await target.served();
          const callsAfter = await agent.calls();
          const [sentAfter, agentSentAfter, rawSentAfter] = await sentByAll();
          const proberProbes = sentAfter.sent - sentBefore.sent;
          const agentProberProbes = agentSentAfter.sent - agentSentBefore.sent;
          const rawProbes = rawSentAfter.sent - rawSentBefore.sent;
          const agentThreads = threadsPerS(begin.agent, end.agent);
          measured.push({
            fromS: window.fromS,
            checks: resting.checks,
            intervalS: resting.intervalS,
            windowS: (end.agent.at - begin.agent.at) / 1000,
            ...between(begin.agent, end.agent, agentThreads),
            threads: end.agent.proc.threads,
            threadsMsPerS: cpuByRole(agentThreads),
            rssMb: end.agent.proc.rssMb,
            // The target counts the probers' requests with the agent's.
            probes: servedAfter - servedBefore - proberProbes - agentProberProbes - rawProbes,
            calls: callsAfter - callsBefore,
            reference: { periodMs: resting.referencePeriodMs, ...between(begin.reference, end.reference) },
            prober: { periodMs: proberPeriodMs, probes: proberProbes, ...between(begin.prober, end.prober) },
            agentProbes: {
              periodMs: proberPeriodMs,
              probes: agentProberProbes,
              failed: agentSentAfter.failed - agentSentBefore.failed,
              ...between(begin.agentProber, end.agentProber),
            },
            rawExchanges: { periodMs: proberPeriodMs, probes: rawProbes, ...between(begin.rawProber, end.rawProber) },
          });
        }
        return measured;
      } finally {
        await Promise.all([stopChild(reference), stopChild(prober), stopChild(agentProber), stopChild(rawProber)]);
      }
    },
    resting.intervalS,
  );
}
