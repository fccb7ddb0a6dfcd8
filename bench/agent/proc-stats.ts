// CPU and memory of another process as the OS accounts them (Linux /proc), so the figures include
// everything the process does: JIT, GC, SQLite, the kernel time of its sockets.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { probeThreadName } from '../../src-main/agent/probes/probe-thread.ts';

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

/**
 * Context switches of every thread of the process so far (/proc/PID/task/TID/status). A voluntary
 * switch is a thread going to sleep (epoll_wait, a futex, a blocking read) and so stands for one
 * wakeup later; a nonvoluntary one is a running thread preempted — on a quiet machine rare, on a
 * busy one noise. The bench's "wakeups" are the sum of both, an upper bound on how often the
 * process had the CPU woken for it. /proc/PID/status alone would count the main thread only;
 * a thread that exits takes its counts with it (the agent's threads live as long as it does).
 */
export function contextSwitches(pid: number): { voluntary: number; nonvoluntary: number } {
  let voluntary = 0;
  let nonvoluntary = 0;
  for (const [, status] of threadFiles(pid, 'status')) {
    voluntary += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    nonvoluntary += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  }
  return { voluntary, nonvoluntary };
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
 * and the rest (the inspector's, Node's platform timer thread).
 */
export const threadRoles = ['main', 'probeThread', 'v8Helpers', 'libuvPool', 'other'] as const;
export type ThreadRole = (typeof threadRoles)[number];

function threadRole(pid: number, tid: number, comm: string): ThreadRole {
  if (tid === pid) return 'main';
  if (comm === probeThreadName) return 'probeThread';
  if (comm.startsWith('V8Worker')) return 'v8Helpers';
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

/**
 * The time of the process's threads so far by what they are for: the first two fields of
 * /proc/PID/task/TID/schedstat (on a core, and runnable but waiting for one). /proc/PID/stat
 * counts in clock ticks (10 ms here), and a resting agent's minute is ~90 ms of CPU, nine ticks:
 * ±11 % from the rounding alone. A thread that exits takes its time with it, so this is for
 * processes whose threads live as long as they do (the resting row, the wake-up reference, a
 * window of an agent whose probe thread runs throughout).
 */
export function threadTimesByRole(pid: number): Record<ThreadRole, ThreadTime> {
  const times = Object.fromEntries(threadRoles.map((role) => [role, { cpuMs: 0, waitMs: 0 }])) as Record<
    ThreadRole,
    ThreadTime
  >;
  for (const [tid, schedstat] of threadFiles(pid, 'schedstat')) {
    let comm = '';
    try {
      comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      // Ended between the two reads: its time still counts, as "other".
    }
    const [onCpu = '0', waiting = '0'] = schedstat.split(' ');
    const time = times[threadRole(pid, tid, comm)];
    time.cpuMs += Number(onCpu) / 1e6;
    time.waitMs += Number(waiting) / 1e6;
  }
  return times;
}

/** `end` − `begin` (two threadTimesByRole readings of one process), per second of `seconds`. */
export function threadTimesPerSecond(
  begin: Record<ThreadRole, ThreadTime>,
  end: Record<ThreadRole, ThreadTime>,
  seconds: number,
): Record<ThreadRole, ThreadTime> {
  return Object.fromEntries(
    threadRoles.map((role) => [
      role,
      {
        cpuMs: (end[role].cpuMs - begin[role].cpuMs) / seconds,
        waitMs: (end[role].waitMs - begin[role].waitMs) / seconds,
      },
    ]),
  ) as Record<ThreadRole, ThreadTime>;
}

/** Every thread's CPU time together, from threadTimesByRole. */
export const allThreadsCpuMs = (times: Record<ThreadRole, ThreadTime>): number =>
  threadRoles.reduce((sum, role) => sum + times[role].cpuMs, 0);

/** The whole machine's CPU time so far (/proc/stat, first line, in clock ticks): idle and all. */
export interface MachineCpu {
  idle: number;
  total: number;
}

/** Parses /proc/stat's first line; idle counts iowait too (a CPU waiting on a disk runs nothing). */
export function parseMachineCpu(stat: string): MachineCpu {
  const ticks = (stat.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, n) => sum + (Number.isFinite(n) ? n : 0), 0);
  return { idle: (ticks[3] ?? 0) + (ticks[4] ?? 0), total };
}

export const sampleMachine = (): MachineCpu => parseMachineCpu(readFileSync('/proc/stat', 'utf8'));

/**
 * The share of the machine's CPU that was idle between two samples, every core together. The
 * agent shares the machine with the target and the server, and a VM's cores give more or less
 * from one hour to the next: the same load has run late with the machine a fifth idle and on time
 * with it half idle (docs/architecture.md, the late runs at 80 %).
 */
export const idleShare = (before: MachineCpu, after: MachineCpu): number =>
  after.total > before.total ? (after.idle - before.idle) / (after.total - before.total) : Number.NaN;
