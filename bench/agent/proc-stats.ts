// CPU and memory of another process as the OS accounts them (Linux /proc), so the figures include
// everything the process does: JIT, GC, SQLite, the kernel time of its sockets.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { probeThreadName } from '../../src-main/agent/probes/probe-thread.ts';
import { percent } from '../support.ts';

export interface ProcSample {
  /** user + system CPU since the process started. */
  cpuMs: number;
  rssMb: number;
  /** The highest RSS since the process started (VmHWM). */
  peakRssMb: number;
  threads: number;
}

const ticksPerSecond = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime in clock ticks from /proc/PID/stat (the command name may hold spaces). */
export function parseStatTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the man page; the slice starts at field 3.
  return Number(fields[11]) + Number(fields[12]);
}

/** A `Name:   123 kB` line of /proc/PID/status, in MB. */
export function statusMb(status: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) / 1024;
}

export function sampleProcess(pid: number): ProcSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    cpuMs: (parseStatTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1000) / ticksPerSecond,
    rssMb: statusMb(status, 'VmRSS'),
    peakRssMb: statusMb(status, 'VmHWM'),
    threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN),
  };
}

/** Voluntary and nonvoluntary context switches. */
export interface Switches {
  voluntary: number;
  nonvoluntary: number;
}

/**
 * Context switches of every live thread of the process so far, by thread id
 * (/proc/PID/task/TID/status). A voluntary switch is a thread going to sleep (epoll_wait, a
 * futex, a blocking read) and so stands for one wakeup later; a nonvoluntary one is a running
 * thread preempted — on a quiet machine rare, on a busy one noise. The bench's "wakeups" are the
 * sum of both, an upper bound on how often the process had the CPU woken for it. /proc/PID/status
 * alone would count the main thread only.
 */
export function contextSwitches(pid: number): Map<number, Switches> {
  const threads = new Map<number, Switches>();
  for (const [tid, status] of threadFiles(pid, 'status')) {
    threads.set(tid, {
      voluntary: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
      nonvoluntary: Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
    });
  }
  return threads;
}

/**
 * The switches between two readings of contextSwitches, as threadTimesPerSecond counts time: each
 * thread from its own count at `begin` (from 0 if it started since). A thread that ended in between
 * takes its counts with it (the kernel keeps them nowhere a reader can see), so its switches in the
 * window are missing; it takes nothing away from the others' either.
 */
export function switchesBetween(begin: Map<number, Switches>, end: Map<number, Switches>): Switches {
  const sum: Switches = { voluntary: 0, nonvoluntary: 0 };
  for (const [tid, now] of end) {
    const before = begin.get(tid) ?? { voluntary: 0, nonvoluntary: 0 };
    sum.voluntary += now.voluntary - before.voluntary;
    sum.nonvoluntary += now.nonvoluntary - before.nonvoluntary;
  }
  return sum;
}

/**
 * /proc/PID/task/TID/<name> of every thread of the process, with the thread's id; a thread that
 * ended meanwhile is skipped.
 */
function* threadFiles(pid: number, name: string): Generator<[number, string]> {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/${name}`, 'utf8');
    } catch {
      continue; // The thread ended between the listing and the read.
    }
    yield [Number(tid), text];
  }
}

/**
 * What a Node process's threads are for, from their names (/proc/PID/task/TID/comm): its main
 * thread (the thread whose id is the process's), the agent's probe thread (its name,
 * probes/probe-thread.ts), V8's helper threads (`V8Worker`: concurrent marking and sweeping of a
 * full GC, scavenging, compiling), libuv's pool (`libuv-worker`: file system calls, fdatasync),
 * and the rest (the inspector's, Node's platform timer thread). `ended` is no name: the threads
 * that ended between two readings (threadTimesPerSecond).
 */
export const threadRoles = ['main', 'probeThread', 'v8Helpers', 'libuvPool', 'other', 'ended'] as const;
export type ThreadRole = (typeof threadRoles)[number];

/** How Node's platform names V8's helper threads (each name is this and a number). */
export const v8HelperThreadPrefix = 'V8Worker';

function threadRole(pid: number, tid: number, comm: string): ThreadRole {
  if (tid === pid) return 'main';
  if (comm === probeThreadName) return 'probeThread';
  if (comm.startsWith(v8HelperThreadPrefix)) return 'v8Helpers';
  if (comm.startsWith('libuv-worker')) return 'libuvPool';
  return 'other';
}

/** A thread's time so far, in ms to the nanosecond. */
export interface ThreadTime {
  /** On a core. */
  cpuMs: number;
  /** Ready to run but waiting for a core (the scheduler's run queue): what the machine's other work costs it. */
  waitMs: number;
}

/** A process's threads at one moment: each live thread's time so far, by its id. */
export interface ThreadsReading {
  threads: Map<number, { role: ThreadRole; time: ThreadTime }>;
  /** The whole process's CPU so far (/proc/PID/stat), threads that ended included, in 10 ms ticks. */
  processCpuMs: number;
}

/**
 * The time of the process's threads so far: the first two fields of /proc/PID/task/TID/schedstat
 * (on a core, and runnable but waiting for one), to the nanosecond. /proc/PID/stat counts in clock
 * ticks (10 ms here), and a resting agent's minute is ~90 ms of CPU, nine ticks: ±11 % from the
 * rounding alone; it is read too, for the threads that end (threadTimesPerSecond).
 */
export function readThreads(pid: number): ThreadsReading {
  const threads: ThreadsReading['threads'] = new Map();
  for (const [tid, schedstat] of threadFiles(pid, 'schedstat')) {
    let comm = '';
    try {
      comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      // Ended between the two reads: its time still counts, as "other".
    }
    const [onCpu = '0', waiting = '0'] = schedstat.split(' ');
    threads.set(tid, {
      role: threadRole(pid, tid, comm),
      time: { cpuMs: Number(onCpu) / 1e6, waitMs: Number(waiting) / 1e6 },
    });
  }
  let processCpuMs = Number.NaN;
  try {
    processCpuMs = sampleProcess(pid).cpuMs;
  } catch {
    // The process ended: its threads above are all there is.
  }
  return { threads, processCpuMs };
}

/**
 * Each kind of thread's time between two readings of one process, per second of `seconds`. Each
 * thread counts from its own reading at `begin` (from 0 if it started since), so a thread that
 * ended in between takes nothing away from its kind. Its time in the window is gone with it from
 * /proc/PID/task, and only the process's own count in ticks still holds it: `ended` is what that
 * count grew by beyond the live threads', on a core only (how long an ended thread waited for one
 * is not kept anywhere), and 0 unless a thread did end, since ticks are too coarse to subtract
 * otherwise (a thread started and ended between the readings is not seen either).
 */
export function threadTimesPerSecond(
  begin: ThreadsReading,
  end: ThreadsReading,
  seconds: number,
): Record<ThreadRole, ThreadTime> {
  const sums = Object.fromEntries(threadRoles.map((role) => [role, { cpuMs: 0, waitMs: 0 }])) as Record<
    ThreadRole,
    ThreadTime
  >;
  let liveCpuMs = 0;
  for (const [tid, { role, time }] of end.threads) {
    const before = begin.threads.get(tid)?.time ?? { cpuMs: 0, waitMs: 0 };
    sums[role].cpuMs += time.cpuMs - before.cpuMs;
    sums[role].waitMs += time.waitMs - before.waitMs;
    liveCpuMs += time.cpuMs - before.cpuMs;
  }
  const someEnded = [...begin.threads.keys()].some((tid) => !end.threads.has(tid));
  const processGrew = end.processCpuMs - begin.processCpuMs;
  if (someEnded && Number.isFinite(processGrew)) sums.ended.cpuMs = Math.max(0, processGrew - liveCpuMs);
  for (const role of threadRoles) {
    sums[role].cpuMs /= seconds;
    sums[role].waitMs /= seconds;
  }
  return sums;
}

/** Every kind's CPU time together, from threadTimesPerSecond. */
export const allThreadsCpuMs = (times: Record<ThreadRole, ThreadTime>): number =>
  threadRoles.reduce((sum, role) => sum + times[role].cpuMs, 0);

/** The whole machine's CPU time so far (/proc/stat, first line, in clock ticks): idle and all. */
export interface MachineCpu {
  idle: number;
  /** Steal time: ticks a core of this virtual machine was ready to run but the host ran another guest. */
  stolen: number;
  total: number;
}

/** Parses /proc/stat's first line; idle counts iowait too (a CPU waiting on a disk runs nothing). */
export function parseMachineCpu(stat: string): MachineCpu {
  const ticks = (stat.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, n) => sum + (Number.isFinite(n) ? n : 0), 0);
  return { idle: (ticks[3] ?? 0) + (ticks[4] ?? 0), stolen: ticks[7] ?? 0, total };
}

export const sampleMachine = (): MachineCpu => parseMachineCpu(readFileSync('/proc/stat', 'utf8'));

/**
 * What the machine's cores did between two samples, as shares of all their time, every core
 * together. The agent shares the machine with the target and the server, and a VM's cores give
 * more or less from one hour to the next: the same load has run late with the machine a fifth
 * idle and on time with it half idle (docs/architecture.md, the late runs at 80 %). `stolen` is
 * the part of it the host gave to other guests while this one had work to run, which no idle
 * share shows.
 */
export interface MachineShares {
  idle: number;
  stolen: number;
}

export function machineShares(before: MachineCpu, after: MachineCpu): MachineShares {
  const total = after.total - before.total;
  if (total <= 0) return { idle: Number.NaN, stolen: Number.NaN };
  return { idle: (after.idle - before.idle) / total, stolen: (after.stolen - before.stolen) / total };
}

/** The shares in a table's words: "36 % idle, 4 % to the host". */
export const machineWords = (shares: MachineShares): string =>
  Number.isFinite(shares.idle) ? `${percent(shares.idle)} idle, ${percent(shares.stolen)} to the host` : 'n/a';
