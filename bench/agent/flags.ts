// npm run bench:flags — the built command under other start-up flags, side by side: for each set
// in BENCH_FLAGS (separated by "|", in place of the V8 flags on the command's first line;
// default: the command's own flags against a 1 MB semi-space; a set may begin with NAME=value
// words, set in the agent's environment beside the first line's own), the agent runs N checks
// (BENCH_CHECKS, default 20,1000) for a 20 s warm-up and a 20 s window, the sets interleaved and
// each REPS times (BENCH_REPS, default 3), since one run on a shared machine moves by ±10 %.
// Prints every run and then the mean per set: CPU per probe, probes a second and RSS. Asserts nothing.
// BENCH_LAG=1 reads each run's schedule lag p99 as the whole bench's 80 % row does (its warm-up,
// a 30 s window, `status --json` at both ends, the machine's idle share over the lag's minute)
// and prints each set's lags and their median: one minute's lag moves far more than CPU does.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lagWarmupS, measureAgent, withAgent } from './agent-run.ts';
import { missedRuns } from './agent-status.ts';
import { removeOnExit, stopAll, stopEverythingOn } from './children.ts';
import { cpuPerProbeMs, probesPerSecond, type Measured } from './measure.ts';
import { machineWords, sampleProcess } from './proc-stats.ts';
import { launchWith, parseShebang, shebangOf } from './stack.ts';
import { startTarget, type Target } from './target.ts';
import { count, fixed, percentile, printTable } from '../support.ts';

const cli = resolve(import.meta.dirname, '../../dist/main/cli/main.js');
const text = readFileSync(cli, 'utf8');
const [shebang = '', ...rest] = text.split('\n');
const own = parseShebang(shebang);
const ownFlags = own.nodeArgs.join(' ');
/** By default the command's own flags against the same with a 1 MB semi-space. */
const smallerYoung = ownFlags.replace(/--max-semi-space-size=\d+/, '--max-semi-space-size=1');
const sets = (process.env.BENCH_FLAGS ?? `${ownFlags}|${smallerYoung}`).split('|');
const sizes = (process.env.BENCH_CHECKS ?? '20,1000').split(',').map(Number);
const reps = Number(process.env.BENCH_REPS ?? '3');
if (sizes.some((n) => !Number.isInteger(n) || n <= 0) || !Number.isInteger(reps) || reps <= 0)
  throw new Error(
    'BENCH_CHECKS must be positive whole numbers separated by commas, BENCH_REPS a positive whole number',
  );
const lagMode = process.env.BENCH_LAG === '1';
if (!['', '0', '1'].includes(process.env.BENCH_LAG ?? '')) throw new Error('BENCH_LAG must be 1 (read the lag) or 0');
const windowS = lagMode ? 30 : 20;
const warmupS = lagMode ? lagWarmupS(20, windowS) : 20;

// Beside the real command, so its relative imports resolve; removed at the end.
const copies = sets.map((set, i) => {
  const file = resolve(import.meta.dirname, `../../dist/main/cli/main-flags-${i}.js`);
  writeFileSync(file, [shebangOf(launchWith(own, set)), ...rest].join('\n'));
  chmodSync(file, 0o755);
  return file;
});

interface Run {
  set: number;
  checks: number;
  m: Measured;
  /** BENCH_LAG: the lag p99 of the minute before the window's end, or why there is none. */
  lag?: { p99Ms: number | null; waited: number; missed: number; machine: string } | string;
}

/** One run as bench:agent's 80 % row reads it: its lag from the agent's own status. */
async function lagRun(copy: string, set: number, checks: number, target: Target, folder: string): Promise<Run> {
  const m = await measureAgent(copy, checks, target, folder, warmupS, windowS, false);
  const lag =
    typeof m.schedule === 'string'
      ? m.schedule
      : {
          p99Ms: m.schedule.lagP99Ms,
          waited: m.schedule.waitedForSlot,
          missed: missedRuns(m.schedule),
          machine: machineWords(m.lagMachine ?? m.machine),
        };
  return { set, checks, m, lag };
}

const lagWords = (lag: Run['lag']): string =>
  lag === undefined
    ? ''
    : typeof lag === 'string'
      ? `; lag unread: ${lag}`
      : `; lag p99 ${lag.p99Ms ?? '—'} ms, ${count(lag.waited)} runs waited for a slot, ${count(lag.missed)} missed, ${lag.machine} over the lag's minute`;
const runs: Run[] = [];
stopEverythingOn((warmupS + windowS + 30) * 1000 * sets.length * sizes.length * reps + 60_000);
const folder = removeOnExit(mkdtempSync(join(tmpdir(), 'bench-flags-')));
try {
  const target = await startTarget(folder);
  console.log(
    `bench:flags — ${target.description}; ${reps} rounds of ${sizes.join(', ')} checks × ${sets.length} flag sets`,
  );
  for (let round = 0; round < reps; round++)
    for (const checks of sizes)
      for (const [set, copy] of copies.entries()) {
        const run: Run = lagMode
          ? await lagRun(copy, set, checks, target, folder)
          : await withAgent(copy, checks, target, folder, false, async (agent) => {
              await sleep(warmupS * 1000);
              const before = { proc: sampleProcess(agent.pid), served: await target.served() };
              await sleep(windowS * 1000);
              const after = { proc: sampleProcess(agent.pid), served: await target.served() };
              const m: Measured = {
                probes: Math.max(1, after.served - before.served),
                cpuMs: after.proc.cpuMs - before.proc.cpuMs,
                rssMb: after.proc.rssMb,
                peakRssMb: after.proc.peakRssMb,
                windowS,
              };
              return { set, checks, m };
            });
        runs.push(run);
        console.log(
          `round ${round + 1}, ${checks} checks, [${sets[set] ?? ''}]: ${fixed(cpuPerProbeMs(run.m), 3)} ms a probe, ${fixed(probesPerSecond(run.m), 0)} probes/s, ${fixed(run.m.rssMb)} MB${lagWords(run.lag)}`,
        );
      }
} finally {
  for (const copy of copies) rmSync(copy, { force: true });
  await stopAll();
}

/** BENCH_LAG: a set's lags round by round, and their median (a mean would be one stall's). */
function lagColumns(mine: readonly Run[]): Record<string, string> {
  const lags = mine.map((r) => (typeof r.lag === 'object' ? r.lag.p99Ms : null));
  const read = lags.filter((ms): ms is number => ms !== null).sort((a, b) => a - b);
  return {
    'lag p99 by round': lags.map((ms) => (ms === null ? '—' : `${ms}`)).join(', '),
    'median lag p99': read.length === 0 ? '—' : `${fixed(percentile(read, 50), 0)} ms`,
  };
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
printTable(
  'mean per flag set',
  sizes.flatMap((checks) =>
    sets.map((flags, set) => {
      const mine = runs.filter((r) => r.set === set && r.checks === checks);
      return {
        checks,
        flags,
        runs: mine.length,
        'CPU per probe': `${fixed(mean(mine.map((r) => cpuPerProbeMs(r.m))), 3)} ms`,
        'probes/s': fixed(mean(mine.map((r) => probesPerSecond(r.m))), 0),
        RSS: `${fixed(mean(mine.map((r) => r.m.rssMb)))} MB`,
        ...(lagMode ? lagColumns(mine) : {}),
      };
    }),
  ),
);
