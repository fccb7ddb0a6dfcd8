// The built headless command as users start it (the file itself, so its shebang's V8 flags
// apply), enrolled with a reference server in its own process that holds N checks at a 1 s
// interval (another for the resting row), measured for a window after a warm-up. With `inside`, the agent also loads the bench
// preload (memory-preload.js) that writes V8's memory figures to a file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { placementMessages } from '../../src-main/agent/runs/probe-placement.ts';
import { readStatus, scheduleBetween, type ScheduleFigures, type StatusReading } from './agent-status.ts';
import { startChild, stopChild } from './children.ts';
import { gcBetween, insideMemory, osMemory, type GcRates, type InsideMemory, type OsMemory } from './memory.ts';
import { nextMessage, type Measured } from './measure.ts';
import {
  machineShares,
  readThreads,
  sampleMachine,
  sampleProcess,
  threadTimesPerSecond,
  type MachineShares,
  type ThreadRole,
  type ThreadTime,
} from './proc-stats.ts';
import type { Target } from './target.ts';

export interface AgentMeasured extends Measured {
  checks: number;
  inside: boolean;
  /** At the end of the window the agent probed in its probe thread (its log says so). */
  probeThread: boolean;
  /** Results the server stored during the window. */
  stored: number;
  /** `status --json` at the start and the end of the window. */
  status: { before: StatusReading; after: StatusReading };
  /** Due, executed and missed runs between the two readings, or why there are none. */
  schedule: ScheduleFigures | string;
  /** `probeThread`: the probe thread's own V8 heap, when it ran at the end of the window (preload only). */
  memory: { os: OsMemory | string; inside: InsideMemory | undefined; probeThread: InsideMemory | undefined };
  /** Each thread's GCs over the window (preload only; memory.ts gcBetween). */
  gc: { main: GcRates | undefined; probeThread: GcRates | undefined };
  /** What the whole machine's cores did during the window: idle, and taken by the host (proc-stats.ts). */
  machine: MachineShares;
  /**
   * The same over the minute the lag p99 covers (lagMinuteS up to the window's end), which begins
   * before the window; undefined when the agent's life was shorter than that minute.
   */
  lagMachine: MachineShares | undefined;
  /**
   * Each kind of thread's time during the window, per second of it (proc-stats.ts threadTimesPerSecond):
   * cpuMs / 1000 is the share of one core it ran on, waitMs / 1000 the share it spent ready to run
   * but waiting for a core.
   */
  threadsPerS: Record<ThreadRole, ThreadTime>;
}

export interface RunningAgent {
  pid: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Where the preload writes from the main thread and from the probe thread; undefined without it. */
  memoryFile: string | undefined;
  probeThreadMemoryFile: string | undefined;
  /** Why the agent is not running any more (with its log's tail); undefined while it runs. */
  gone(): string | undefined;
  /** Whether the agent's log last said its probes run in their own thread. */
  probeThread(): boolean;
  target: Target;
  stored(): Promise<number>;
  /** Requests the agent has sent its server so far (enrolment included). */
  calls(): Promise<number>;
}

interface BenchServer {
  url: string;
  token: string;
  stored(): Promise<number>;
  calls(): Promise<number>;
  stop(): Promise<void>;
}

async function startServer(folder: string, checks: number, targetUrl: string, intervalS: number): Promise<BenchServer> {
  const script = new URL('./server-process.ts', import.meta.url).pathname;
  const args = [script, join(folder, 'server.db'), String(checks), targetUrl, String(intervalS)];
  const child = startChild(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await nextMessage(child, (m) =>
    typeof m === 'object' && m !== null && 'url' in m && 'token' in m
      ? { url: String(m.url), token: String(m.token) }
      : undefined,
  );
  const count = (question: 'stored' | 'calls'): Promise<number> => {
    const answer = nextMessage(child, (m) =>
      typeof m === 'object' && m !== null && question in m
        ? Number((m as Record<string, unknown>)[question])
        : undefined,
    );
    child.send(question);
    return answer;
  };
  return { ...ready, stored: () => count('stored'), calls: () => count('calls'), stop: () => stopChild(child) };
}

function logTail(file: string): string {
  return readFileSync(file, 'utf8').trim().split('\n').slice(-5).join('\n');
}

const preload = new URL('./memory-preload.js', import.meta.url).pathname;
/**
 * BENCH_PROFILE_DIR: every agent writes a V8 CPU profile of its whole life there when it stops
 * (node --cpu-prof; open it in Chrome's DevTools, Performance panel).
 */
const profileDir = process.env.BENCH_PROFILE_DIR === undefined ? undefined : resolve(process.env.BENCH_PROFILE_DIR);
let runs = 0;

/** Enrolls and starts an agent with N checks every intervalS, hands it to `use`, and stops everything after. */
export async function withAgent<T>(
  cli: string,
  checks: number,
  target: Target,
  folder: string,
  inside: boolean,
  use: (agent: RunningAgent) => Promise<T>,
  intervalS = 1,
): Promise<T> {
  const dir = join(folder, `agent-${checks}-${++runs}`);
  const dataDir = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  const server = await startServer(dir, checks, target.url, intervalS);
  try {
    const memoryFile = inside ? join(dir, 'memory.json') : undefined;
    const probeThreadMemoryFile = inside ? join(dir, 'memory-probe-thread.json') : undefined;
    const base = { ...process.env, UPTIME_AGENT_ENROLL_TOKEN: server.token, UPTIME_AGENT_DATA_DIR: '' };
    const enroll = spawnSync(
      cli,
      [
        'enroll',
        '--server',
        server.url,
        '--name',
        'bench',
        '--region',
        'local',
        '--country',
        'XX',
        '--city',
        'Bench',
        '--data-dir',
        dataDir,
      ],
      { env: base, encoding: 'utf8', timeout: 30_000 },
    );
    if (enroll.status !== 0) {
      // A timeout or a failed start leaves no exit code and may leave no output: say which.
      const why =
        enroll.error?.message ?? (enroll.signal === null ? enroll.stderr.trim() : `stopped by ${enroll.signal}`);
      throw new Error(`enroll failed (exit ${String(enroll.status)}): ${why}`);
    }

    // As users start it unless the inside view or a profile is asked for; status --json runs
    // without either.
    const extra = [
      ...(memoryFile === undefined ? [] : [`--import ${preload}`]),
      ...(profileDir === undefined ? [] : [`--cpu-prof --cpu-prof-dir=${profileDir}`]),
    ];
    const env =
      extra.length === 0
        ? base
        : {
            ...base,
            NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...extra].join(' ').trim(),
            ...(memoryFile === undefined ? {} : { BENCH_MEMORY_FILE: memoryFile }),
            ...(probeThreadMemoryFile === undefined ? {} : { BENCH_MEMORY_THREAD_FILE: probeThreadMemoryFile }),
          };
    const logFile = join(dir, 'agent.log');
    const log = openSync(logFile, 'w');
    const agent = startChild(cli, ['run', '--data-dir', dataDir], { stdio: ['ignore', 'ignore', log], env });
    closeSync(log);
    try {
      return await use({
        pid: agent.pid ?? 0,
        dataDir,
        env: base,
        memoryFile,
        probeThreadMemoryFile,
        probeThread: () => {
          const log = readFileSync(logFile, 'utf8');
          return log.lastIndexOf(placementMessages.toThread) > log.lastIndexOf(placementMessages.toMain);
        },
        gone: () =>
          agent.exitCode === null && agent.signalCode === null
            ? undefined
            : `the agent exited (${agent.exitCode ?? agent.signalCode})):\n${logTail(logFile)}`,
        target,
        stored: () => server.stored(),
        calls: () => server.calls(),
      });
    } finally {
      // The contract: a graceful stop within 15 s.
      await stopChild(agent, 20_000);
    }
  } finally {
    await server.stop();
  }
}

/**
 * The agent's lag p99 covers the minute before its last load sample (one every 5 s): what the
 * machine did is read over this long before the window's end to match it.
 */
export const lagMinuteS = 65;

/**
 * How long a start at thousands of runs a second takes to settle (a cold probe thread, every
 * check's first history rows): the first ~10 s lag most, so a run read for its lag begins its
 * lag minute this long after the start. Warmed up only lagMinuteS - windowS, its minute held the
 * start.
 */
const startUpS = 30;

/** The warm-up of a run read for its lag p99 (the whole bench's 80 % row, bench:flags with BENCH_LAG). */
export const lagWarmupS = (warmupS: number, windowS: number): number =>
  Math.max(warmupS, lagMinuteS - windowS + startUpS);

export function measureAgent(
  cli: string,
  checks: number,
  target: Target,
  folder: string,
  warmupS: number,
  windowS: number,
  inside: boolean,
): Promise<AgentMeasured> {
  return withAgent(cli, checks, target, folder, inside, async (agent) => {
    const lagFromS = warmupS + windowS - lagMinuteS;
    const atLagStart = lagFromS < 0 ? undefined : sleep(lagFromS * 1000).then(sampleMachine);
    await sleep(warmupS * 1000);
    const died = agent.gone();
    if (died !== undefined) throw new Error(`during the warm-up, ${died}`);
    const statusBefore = await readStatus(cli, agent.dataDir, agent.env);
    const before = { proc: sampleProcess(agent.pid), served: await target.served(), stored: await agent.stored() };
    const insideBefore = {
      main: agent.memoryFile === undefined ? undefined : insideMemory(agent.memoryFile),
      probeThread: agent.probeThreadMemoryFile === undefined ? undefined : insideMemory(agent.probeThreadMemoryFile),
    };
    const machineBefore = sampleMachine();
    const threadsBefore = readThreads(agent.pid);
    const windowStart = performance.now();
    let rssMb = before.proc.rssMb;
    for (let second = 0; second < windowS; second++) {
      await sleep(1000);
      rssMb = sampleProcess(agent.pid).rssMb;
    }
    const machineAfter = sampleMachine();
    const machine = machineShares(machineBefore, machineAfter);
    const lagMachine = atLagStart === undefined ? undefined : machineShares(await atLagStart, machineAfter);
    const threadsPerS = threadTimesPerSecond(
      threadsBefore,
      readThreads(agent.pid),
      (performance.now() - windowStart) / 1000,
    );
    const after = { proc: sampleProcess(agent.pid), served: await target.served(), stored: await agent.stored() };
    const probeThread = agent.probeThread();
    const memory = {
      os: osMemory(agent.pid),
      inside: agent.memoryFile === undefined ? undefined : insideMemory(agent.memoryFile),
      // A thread ended before the window's end left its last figures behind: they are not now's.
      probeThread:
        agent.probeThreadMemoryFile === undefined || !probeThread
          ? undefined
          : insideMemory(agent.probeThreadMemoryFile),
    };
    const statusAfter = await readStatus(cli, agent.dataDir, agent.env);
    return {
      checks,
      inside,
      probeThread,
      probes: after.served - before.served,
      cpuMs: after.proc.cpuMs - before.proc.cpuMs,
      rssMb,
      peakRssMb: after.proc.peakRssMb,
      windowS,
      stored: after.stored - before.stored,
      status: { before: statusBefore, after: statusAfter },
      schedule: !statusBefore.ok
        ? statusBefore.why
        : !statusAfter.ok
          ? statusAfter.why
          : scheduleBetween(statusBefore.value, statusAfter.value),
      memory,
      gc: {
        main: gcBetween(insideBefore.main, memory.inside),
        probeThread: gcBetween(insideBefore.probeThread, memory.probeThread),
      },
      machine,
      lagMachine,
      threadsPerS,
    };
  });
}
