// npm run bench:agent — the built `uptime-agent run` against a loopback target at N checks with a
// 1 s interval, next to the raw undici floor and (when installed) blackbox_exporter driven by wrk,
// all in one run on this machine; see README "Benchmarks". Prints a table; asserts nothing.
// BENCH_CHECKS (default 1000,3000,6000), BENCH_WARMUP_S (20), BENCH_WINDOW_S (30).
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { measureAgent, type AgentMeasured } from './agent-run.ts';
import { findBlackbox, measureBlackbox } from './blackbox.ts';
import { removeOnExit, stopAll, stopEverythingOn } from './children.ts';
import { cpuPerProbeMs, measureFloor, probesPerSecond, type Measured } from './measure.ts';
import { startTarget } from './target.ts';
import { fixed, printTable } from '../support.ts';

function positive(name: string, fallback: string): number[] {
  const values = (process.env[name] ?? fallback).split(',').map(Number);
  if (values.some((v) => !Number.isFinite(v) || v <= 0)) throw new Error(`${name} must be positive numbers separated by commas, got "${process.env[name] ?? ''}"`);
  return values;
}

const sizes = positive('BENCH_CHECKS', '1000,3000,6000');
const [warmupS = 20] = positive('BENCH_WARMUP_S', '20');
const [windowS = 30] = positive('BENCH_WINDOW_S', '30');
const floorWarmupS = 2;
const blackboxWarmupS = 3;

const cli = resolve(import.meta.dirname, '../../dist/main/cli/main.js');
if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build:main" first (npm run bench:agent does)`);
// tsc writes the file without the executable bit that an npm install gives a package's bin.
chmodSync(cli, 0o755);

// Each phase's own time plus generous room for starting and stopping processes.
const budgetS = floorWarmupS + windowS + 30 + blackboxWarmupS + windowS + 30 + sizes.reduce((sum) => sum + warmupS + windowS + 60, 0);
stopEverythingOn(budgetS * 1000);

const count = (n: number): string => Math.round(n).toLocaleString('en-US');
const ms = (n: number): string => `${fixed(n, 2)} ms`;
const mb = (n: number): string => `${fixed(n, 0)} MB`;

function row(system: string, m: Measured, floor: Measured, rate: string, stored: string, showRss = true): Record<string, string> {
  return {
    system,
    'probes/s': rate,
    'CPU per probe': ms(cpuPerProbeMs(m)),
    'CPU vs floor': `${fixed(cpuPerProbeMs(m) / cpuPerProbeMs(floor), 2)}x`,
    'rate vs floor': `${fixed(probesPerSecond(m) / probesPerSecond(floor), 2)}x`,
    RSS: showRss ? mb(m.rssMb) : '—',
    'peak RSS': showRss ? mb(m.peakRssMb) : '—',
    'stored/s': stored,
  };
}

function agentRow(m: AgentMeasured, floor: Measured): Record<string, string> {
  const rate = probesPerSecond(m);
  const due = rate >= 0.99 * m.checks ? `${count(rate)} (all due)` : `${count(rate)} of ${count(m.checks)} due`;
  return row(`uptime-agent, ${count(m.checks)} checks`, m, floor, due, count(m.stored / m.windowS));
}

async function main(): Promise<void> {
  const folder = removeOnExit(mkdtempSync(join(tmpdir(), 'uptime-agent-bench-')));
  console.log(`bench:agent — ${new Date().toISOString()}, node ${process.version}, ${availableParallelism()} CPUs, load ${loadavg().map((l) => fixed(l, 2)).join(' ')}`);
  console.log(`checks ${sizes.join(', ')} at a 1 s interval; warm-up ${warmupS} s, window ${windowS} s; all on 127.0.0.1`);
  const target = await startTarget(folder);
  console.log(`target: ${target.description} at ${target.url}`);

  console.log(`raw undici floor: 32 workers, fresh connection per request, ${windowS} s…`);
  const floor = await measureFloor(target, floorWarmupS, windowS);
  const rows = [row('raw undici, fresh connection per request, 32 workers (floor)', floor, floor, count(probesPerSecond(floor)), '—', false)];

  const blackbox = findBlackbox();
  if (typeof blackbox === 'string') console.log(`blackbox_exporter: ${blackbox}`);
  else {
    console.log(`blackbox_exporter driven by wrk (16 connections), ${windowS} s…`);
    const m = await measureBlackbox(blackbox, target, folder, blackboxWarmupS, windowS);
    rows.unshift(row('Prometheus blackbox_exporter (driven by wrk, 16 connections)', m, floor, count(probesPerSecond(m)), '—'));
  }

  const notes: string[] = [];
  for (const n of sizes) {
    console.log(`uptime-agent with ${count(n)} checks: ${warmupS} s warm-up, ${windowS} s window…`);
    const m = await measureAgent(cli, n, target, folder, warmupS, windowS);
    rows.push(agentRow(m, floor));
    notes.push(`${count(n)} checks: ${m.unsentAtEnd === undefined ? 'status --json unavailable' : `${count(m.unsentAtEnd)} results unsent at the end of the window`}`);
  }
  printTable('uptime-agent against the floor (CPU from /proc/PID/stat, RSS = VmRSS at the end of the window, peak = VmHWM; probes counted by the target)', rows);
  for (const note of notes) console.log(`  ${note}`);
  console.log('  schedule lag: not exposed by the agent (bench:probes measures it in-process)');
  if (floor.failures > 0) console.log(`  the floor saw ${count(floor.failures)} failed requests`);
}

try {
  await main();
} finally {
  await stopAll();
}
