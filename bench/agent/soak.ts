// BENCH_SOAK_MIN=30 npm run bench:agent — one agent (N checks at 1 s, the inside view loaded) for
// that many minutes: RSS, V8 heap and the OS's split printed every minute (or every
// BENCH_SOAK_STEP_S), then the slope of RSS and of the V8 heap used (MB per 10 min, least squares)
// from minute 2 on, and issue 26's goal judged from minute 10 on (goals.ts), so "flat over 30
// minutes" is a printed figure, not an impression.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { withAgent } from './agent-run.ts';
import { missedRuns, readStatus, scheduleBetween, type StatusReading } from './agent-status.ts';
import { gcCountsBetween, insideMemory, osMemory, type InsideMemory } from './memory.ts';
import { sampleProcess } from './proc-stats.ts';
import type { Target } from './target.ts';
import { goalValues, verdict } from './goals.ts';
import { count, fixed, fixedBeside, mib, mibText, printTable } from '../support.ts';

/** The first minutes are start-up (the store fills, caches warm, V8 sizes its heap): left out of the slope. */
const settleMin = 2;

/** Least-squares slope of y over x; NaN with fewer than two points. */
export function slope(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

interface Sample {
  min: number;
  rssMb: number;
  heapUsedMb: number;
}

/** How fast one figure of the samples grows, in MB per 10 min (least squares over their minutes). */
const mbPer10Min = (samples: readonly Sample[], pick: (s: Sample) => number): number =>
  slope(samples.map((s) => ({ x: s.min, y: pick(s) }))) * 10;

/** Issue 26's "flat over 30 minutes at 1,000 checks", judged on the samples from goalValues.flatFromMin on. */
export function flatVerdict(checks: number, minutes: number, samples: readonly Sample[]): string {
  const { flatChecks, flatMinutes, flatFromMin, flatMbPer10Min } = goalValues;
  const goal = `goal: RSS flat over ${flatMinutes} min at ${count(flatChecks)} checks (slope from minute ${flatFromMin} <= ${flatMbPer10Min} MB per 10 min)`;
  const judged = samples.filter((s) => s.min >= flatFromMin);
  const first = judged[0];
  const last = judged.at(-1);
  if (checks !== flatChecks || minutes < flatMinutes || first === undefined || last === undefined || judged.length < 2)
    return `${goal}: ${verdict(undefined)} (this soak: ${count(checks)} checks, ${minutes} min)`;
  const per10 = mbPer10Min(judged, (s) => s.rssMb);
  return `${goal}: ${fixedBeside(per10, flatMbPer10Min, 2)} MB per 10 min, RSS ${fixed(first.rssMb, 1)} MB at minute ${fixed(first.min, 0)} and ${fixed(last.rssMb, 1)} MB at minute ${fixed(last.min, 0)}: ${verdict(per10 <= flatMbPer10Min)}`;
}

const spaceMb = (inside: InsideMemory | undefined, name: string, pick: 'used' | 'size'): string =>
  mibText(inside?.spaces.find((s) => s.name === name)?.[pick]);

/** The main heap's spaces that a burst grows: old (used of size), young, large objects. */
export const spaceColumns = (inside: InsideMemory | undefined): Record<string, string> => ({
  'old space': `${spaceMb(inside, 'old_space', 'used')} of ${spaceMb(inside, 'old_space', 'size')}`,
  'new space': spaceMb(inside, 'new_space', 'size'),
  'large objects': spaceMb(inside, 'large_object_space', 'size'),
});

/** The main thread's GCs between the preload's two snapshots (counts, not rates); dashes without them. */
export const gcColumns = (
  before: InsideMemory | undefined,
  after: InsideMemory | undefined,
): Record<string, string> => {
  const counts = gcCountsBetween(before, after);
  return counts === undefined
    ? { scavenges: '—', 'full GCs': '—' }
    : { scavenges: count(counts.scavenges), 'full GCs': count(counts.fullGcs) };
};

export async function soak(
  cli: string,
  checks: number,
  target: Target,
  folder: string,
  minutes: number,
  stepS: number,
): Promise<void> {
  console.log(
    `soak: uptime-agent with ${count(checks)} checks for ${minutes} min (bench preload loaded for the V8 figures), a line every ${stepS} s…`,
  );
  await withAgent(cli, checks, target, folder, true, async (agent) => {
    const started = performance.now();
    // What the step's burst could be (docs/performance.md, the soak's step): each line also has the
    // main heap's spaces, the GCs since the line before, and the server's calls and stored results
    // since then (an upload larger than the rest would show there). BENCH_SOAK_STEP_S=5 finds the
    // step to a few seconds; the preload writes every 2 s.
    const reading = async () => ({
      proc: sampleProcess(agent.pid),
      served: await target.served(),
      calls: await agent.calls(),
      stored: await agent.stored(),
      inside: agent.memoryFile === undefined ? undefined : insideMemory(agent.memoryFile),
    });
    let last = await reading();
    const samples: Sample[] = [];
    const rows: Record<string, string>[] = [];
    let statusAtSettle: StatusReading | undefined;
    // A short trial run (a few minutes or less) settles for half of it instead.
    const from = Math.min(settleMin, minutes / 2);
    for (let step = 1; step * stepS <= minutes * 60; step++) {
      await sleep(started + step * stepS * 1000 - performance.now());
      const died = agent.gone();
      if (died !== undefined) throw new Error(`during the soak, ${died}`);
      const now = await reading();
      const os = osMemory(agent.pid);
      const { inside } = now;
      const min = (step * stepS) / 60;
      const probes = now.served - last.served;
      const heapUsedMb = inside === undefined ? Number.NaN : inside.heapUsed / mib;
      samples.push({ min, rssMb: now.proc.rssMb, heapUsedMb });
      const row = {
        // A line every few seconds needs the hundredths: at 5 s a tenth of a minute repeats.
        min: fixed(min, stepS < 60 ? 2 : 1),
        RSS: `${fixed(now.proc.rssMb, 1)} MB`,
        'V8 heap used': `${fixed(heapUsedMb, 1)} MB`,
        'V8 heap total': `${fixed(inside === undefined ? Number.NaN : inside.heapTotal / mib, 1)} MB`,
        external: `${fixed(inside === undefined ? Number.NaN : inside.external / mib, 1)} MB`,
        'malloc heap+arenas': typeof os === 'string' ? '—' : `${fixed(os.mallocMb, 1)} MB`,
        'other anon': typeof os === 'string' ? '—' : `${fixed(os.otherAnonMb, 1)} MB`,
        'V8 pages': typeof os === 'string' ? '—' : `${fixed(os.v8PagesMb, 1)} MB`,
        'probes/s': fixed(probes / stepS, 0),
        'CPU per probe': `${fixed((now.proc.cpuMs - last.proc.cpuMs) / probes, 2)} ms`,
        ...spaceColumns(inside),
        ...gcColumns(last.inside, inside),
        calls: count(now.calls - last.calls),
        stored: count(now.stored - last.stored),
      };
      rows.push(row);
      console.log(
        `  ${Object.entries(row)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
      if (statusAtSettle === undefined && min >= from) statusAtSettle = await readStatus(cli, agent.dataDir, agent.env);
      last = now;
    }
    printTable(
      `soak: ${count(checks)} checks, ${minutes} min (RSS from /proc, V8 from the preload, split from /proc/PID/smaps)`,
      rows,
    );
    const steady = samples.filter((s) => s.min >= from);
    const per10 = (pick: (s: Sample) => number): string => `${fixed(mbPer10Min(steady, pick), 2)} MB per 10 min`;
    console.log(
      `  slope from minute ${fixed(from, 1)} on (${steady.length} samples, least squares): RSS ${per10((s) => s.rssMb)}, V8 heap used ${per10((s) => s.heapUsedMb)}`,
    );
    console.log(`  ${flatVerdict(checks, minutes, samples)}`);
    const end = await readStatus(cli, agent.dataDir, agent.env);
    if (statusAtSettle === undefined || !statusAtSettle.ok || !end.ok)
      console.log(
        `  schedule: ${statusAtSettle?.ok === false ? statusAtSettle.why : !end.ok ? end.why : 'no reading after the settling minutes'}`,
      );
    else {
      const s = scheduleBetween(statusAtSettle.value, end.value);
      console.log(
        typeof s === 'string'
          ? `  schedule: ${s}`
          : `  schedule over ${fixed(s.intervalS / 60, 1)} min: ${count(s.due)} due, ${count(s.executed)} executed, ${count(missedRuns(s))} missed; lag p99 of the last minute ${s.lagP99Ms ?? '—'} ms`,
      );
    }
  });
}
