// npm run bench:flags — the built command under other start-up flags, side by side: for each set
// in BENCH_FLAGS (separated by "|", in place of the V8 flags on the command's first line;
// default: the command's own flags against a 1 MB semi-space; a set may begin with NAME=value
// words, set in the agent's environment beside the first line's own), the agent runs N checks
// (BENCH_CHECKS, default 20,1000) for a 20 s warm-up and a 20 s window, the sets interleaved and
// each REPS times (BENCH_REPS, default 3), since one run on a shared machine moves by ±10 %.
// Prints every run and then the mean per set: CPU per probe, probes a second and RSS. Asserts nothing.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { withAgent } from './agent-run.ts';
import { removeOnExit, stopAll, stopEverythingOn } from './children.ts';
import { cpuPerProbeMs, probesPerSecond, type Measured } from './measure.ts';
import { sampleProcess } from './proc-stats.ts';
import { launchWith, parseShebang, shebangOf } from './stack.ts';
import { startTarget } from './target.ts';
import { fixed, printTable } from '../support.ts';

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
const warmupS = 20;
const windowS = 20;

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
}
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
        const run = await withAgent(copy, checks, target, folder, false, async (agent) => {
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
          `round ${round + 1}, ${checks} checks, [${sets[set] ?? ''}]: ${fixed(cpuPerProbeMs(run.m), 3)} ms a probe, ${fixed(probesPerSecond(run.m), 0)} probes/s, ${fixed(run.m.rssMb)} MB`,
        );
      }
} finally {
  for (const copy of copies) rmSync(copy, { force: true });
  await stopAll();
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
      };
    }),
  ),
);
