// The whole machine's shares of a window (idle, and taken by the host), and the bench's threads
// table: each kind of thread's time over a window, from two readings of the
// threads of one process (bench/agent/proc-stats.ts). Readings are made up here: what is tested is
// the arithmetic the table stands on, in particular a thread that ends inside the window.
import { describe, expect, it } from 'vitest';
import {
  allThreadsCpuMs,
  machineShares,
  machineWords,
  parseMachineCpu,
  switchesBetween,
  threadTimesPerSecond,
  type ThreadRole,
  type ThreadsReading,
} from '../../bench/agent/proc-stats.ts';

type Thread = [tid: number, role: ThreadRole, cpuMs: number, waitMs: number];

const reading = (processCpuMs: number, threads: Thread[]): ThreadsReading => ({
  processCpuMs,
  threads: new Map(threads.map(([tid, role, cpuMs, waitMs]) => [tid, { role, time: { cpuMs, waitMs } }])),
});

describe('threadTimesPerSecond', () => {
  it('gives each kind what its threads ran and waited in the window, per second', () => {
    const begin = reading(10_000, [
      [100, 'main', 6_000, 500],
      [101, 'v8Helpers', 1_000, 300],
      [102, 'v8Helpers', 1_000, 300],
    ]);
    const end = reading(16_000, [
      [100, 'main', 9_000, 800],
      [101, 'v8Helpers', 1_500, 500],
      [102, 'v8Helpers', 1_700, 600],
    ]);
    const perS = threadTimesPerSecond(begin, end, 10);
    expect(perS.main).toEqual({ cpuMs: 300, waitMs: 30 });
    expect(perS.v8Helpers.cpuMs).toBeCloseTo(120);
    expect(perS.v8Helpers.waitMs).toBeCloseTo(50);
    // No thread ended: the process's tick count (10 ms steps) is not subtracted from anything.
    expect(perS.ended).toEqual({ cpuMs: 0, waitMs: 0 });
    expect(allThreadsCpuMs(perS)).toBeCloseTo(420);
  });

  it('counts a thread that started in the window from zero', () => {
    const begin = reading(5_000, [[100, 'main', 5_000, 0]]);
    const end = reading(7_000, [
      [100, 'main', 6_000, 0],
      [200, 'probeThread', 1_000, 200],
    ]);
    const perS = threadTimesPerSecond(begin, end, 2);
    expect(perS.probeThread).toEqual({ cpuMs: 500, waitMs: 100 });
    expect(perS.ended.cpuMs).toBe(0);
  });

  it('takes nothing away from the kind of a thread that ended, and gives its time in the window to ended', () => {
    // The probe thread had run 50 s before the window; it ran 1.5 s more in it, then ended.
    const begin = reading(60_000, [
      [100, 'main', 10_000, 0],
      [200, 'probeThread', 50_000, 4_000],
    ]);
    const end = reading(62_500, [[100, 'main', 11_000, 0]]);
    const perS = threadTimesPerSecond(begin, end, 4);
    // The sums over live threads read (11,000 - 60,000) / 4 here: below zero.
    expect(perS.probeThread).toEqual({ cpuMs: 0, waitMs: 0 });
    expect(perS.main.cpuMs).toBe(250);
    expect(perS.ended).toEqual({ cpuMs: 375, waitMs: 0 });
    expect(allThreadsCpuMs(perS)).toBe(625);
  });

  it('never reads a negative ended share when the tick count lags the threads', () => {
    const begin = reading(1_000, [
      [100, 'main', 990, 0],
      [101, 'other', 5, 0],
    ]);
    const end = reading(1_000, [[100, 'main', 1_004, 0]]);
    expect(threadTimesPerSecond(begin, end, 1).ended.cpuMs).toBe(0);
  });
});

describe('switchesBetween', () => {
  const switches = (threads: [tid: number, voluntary: number, nonvoluntary: number][]) =>
    new Map(threads.map(([tid, voluntary, nonvoluntary]) => [tid, { voluntary, nonvoluntary }]));

  it('sums what each thread switched in the window, a thread started since from zero', () => {
    const begin = switches([
      [100, 500, 40],
      [101, 20, 1],
    ]);
    const end = switches([
      [100, 560, 52],
      [101, 23, 1],
      [200, 7, 2],
    ]);
    expect(switchesBetween(begin, end)).toEqual({ voluntary: 70, nonvoluntary: 14 });
  });

  it('takes nothing away for a thread that ended in the window', () => {
    // Summed over live threads, the probe thread's 9,000 switches before the window would come off.
    const begin = switches([
      [100, 500, 40],
      [200, 9_000, 300],
    ]);
    const end = switches([[100, 530, 45]]);
    expect(switchesBetween(begin, end)).toEqual({ voluntary: 30, nonvoluntary: 5 });
  });
});

describe('machineShares', () => {
  // /proc/stat's first line: user nice system idle iowait irq softirq steal guest guest_nice.
  const stat = (idle: number, iowait: number, steal: number, busy: number): string =>
    `cpu  ${busy} 0 0 ${idle} ${iowait} 0 0 ${steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n`;

  it('splits the window into the share left idle (iowait with it) and the share the host took', () => {
    const before = parseMachineCpu(stat(1_000, 10, 50, 4_000));
    expect(before).toEqual({ idle: 1_010, stolen: 50, total: 5_060 });
    const after = parseMachineCpu(stat(1_300, 20, 150, 4_590));
    // 1,000 ticks in the window: 310 idle, 100 stolen, 590 run.
    const shares = machineShares(before, after);
    expect(shares.idle).toBeCloseTo(0.31);
    expect(shares.stolen).toBeCloseTo(0.1);
    expect(machineWords(shares)).toBe('31 % idle, 10 % to the host');
  });

  it('reads a line without a steal column (an old kernel) as nothing taken', () => {
    expect(parseMachineCpu('cpu  400 0 100 500 0 0 0\n')).toEqual({ idle: 500, stolen: 0, total: 1_000 });
  });

  it('says n/a for a window the clock did not move in, not a share of nothing', () => {
    const same = parseMachineCpu(stat(1_000, 0, 0, 1_000));
    expect(machineWords(machineShares(same, same))).toBe('n/a');
  });
});
