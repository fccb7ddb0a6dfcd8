// npm run bench:probes — the scheduler and the http probe at scale, against a loopback target in
// its own process: N checks at a 10 s interval for BENCH_SECONDS (default 60) each, then the
// latency accuracy against a target that answers after exactly 200 ms. Prints tables; asserts
// nothing (targets: zero missed runs, p99 lag <= 20 ms at 5,000 checks, RSS <= 150 MB, median
// latency within 2 ms of 200).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src-main/agent/base/clock.ts';
import { createCheckRunner } from '../src-main/agent/runs/check-runner.ts';
import { runProbe } from '../src-main/agent/probes/index.ts';
import type { RunnableCheck } from '../src-main/agent/checks/runnable-checks.ts';
import { createResultSink } from '../src-main/agent/results/result-sink.ts';
import { gridAfterFirstRun, phaseMs } from '../src-main/agent/schedule/grid.ts';
import { createScheduler, type RunTicket } from '../src-main/agent/schedule/scheduler.ts';
import { openDatabase } from '../src-main/agent/store/database.ts';
import { createHistory } from '../src-main/agent/store/history.ts';
import { createOutbox } from '../src-main/agent/store/outbox.ts';
import { agentDefaults } from '../src-main/agent/defaults.ts';
import { fixed, percentile, printTable, rssSampler, startTargetProcess } from './support.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? '60');
const sizes = (process.env.BENCH_CHECKS ?? '1000,5000').split(',').map(Number);
const intervalMs = 10_000;

async function scale(n: number, url: string): Promise<Record<string, string | number>> {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'bench-probes-')), 'agent.db'));
  const outbox = createOutbox(db, { maxCount: agentDefaults.outboxMaxCount, maxBytes: agentDefaults.outboxMaxBytes });
  const history = createHistory(db, agentDefaults.historySlots);
  const sink = createResultSink({
    db,
    outbox,
    history,
    clock: systemClock,
    maxBatch: 500,
    onCommitted: () => undefined,
    onProblem: (_problem, e) => console.error(e),
  });
  const checks = new Map<string, RunnableCheck>();
  for (let i = 0; i < n; i++) {
    const guid = `bench-check-${i}`;
    checks.set(guid, {
      guid,
      name: guid,
      intervalMs,
      maxChars: 200,
      definition: { url: `${url}?check=${i}`, match_string: 'ok' },
    });
  }
  const lags: number[] = [];
  const dueTimes = new Map<string, number[]>();
  let failures = 0;
  const runner = createCheckRunner({
    lookup: (guid) => checks.get(guid),
    probe: runProbe,
    sink,
    monitorId: () => 'bench',
    skipsRun: () => Promise.resolve(false),
    onOutcome: (_c, outcome) => {
      if (!outcome.success) failures++;
    },
  });
  const scheduler = createScheduler({
    clock: systemClock,
    concurrency: agentDefaults.concurrency,
    startupSpreadMs: agentDefaults.startupSpreadMs,
    onRunError: (_g, e) => console.error(e),
    run: (ticket: RunTicket) => {
      lags.push(ticket.startedAt - ticket.dueAt);
      const list = dueTimes.get(ticket.guid) ?? [];
      list.push(ticket.dueAt);
      dueTimes.set(ticket.guid, list);
      return runner(ticket);
    },
  });
  const rss = rssSampler();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (const check of checks.values()) scheduler.upsert({ guid: check.guid, intervalMs });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const elapsed = (performance.now() - start) / 1000;
  const stats = scheduler.stats();
  await scheduler.stop(5000);
  sink.flush();
  const cpu = process.cpuUsage(cpuStart);
  rss.stop();
  // Due, counted independently of the scheduler: from each check's first run, every grid point
  // up to a cutoff a little before the end (runs right at the end may still be starting).
  const cutoff = Date.now() - 1000;
  let due = 0;
  let executedBeforeCutoff = 0;
  for (const [guid, times] of dueTimes) {
    const first = Math.min(...times);
    if (first > cutoff) continue;
    const phase = phaseMs(guid, intervalMs);
    due += 1;
    for (let t = gridAfterFirstRun(first, intervalMs, phase); t <= cutoff; t += intervalMs) due++;
    executedBeforeCutoff += times.filter((t) => t <= cutoff).length;
  }
  const neverRan = n - dueTimes.size;
  const sorted = lags.sort((a, b) => a - b);
  const committed = outbox.count();
  db.close();
  return {
    checks: n,
    'runs due': due,
    executed: executedBeforeCutoff,
    missed: due - executedBeforeCutoff + neverRan,
    'skipped (overlap)': stats.skippedOverlap + stats.skippedBacklog,
    failed: failures,
    committed,
    'lag p50 ms': fixed(percentile(sorted, 50)),
    'lag p99 ms': fixed(percentile(sorted, 99)),
    'lag max ms': fixed(sorted.at(-1) ?? Number.NaN),
    'probes/s': fixed(stats.executed / elapsed),
    'CPU s / 1k probes': fixed((cpu.user + cpu.system) / 1e6 / (stats.executed / 1000), 2),
    'peak RSS MB': fixed(rss.peakMb()),
  };
}

async function latencyAccuracy(): Promise<Record<string, string | number>> {
  const target = await startTargetProcess(200);
  const samples: number[] = [];
  try {
    for (let i = 0; i < 40; i++) {
      const outcome = await runProbe({ url: target.url, match_string: '' }, { sampleChars: 0 });
      if (outcome.success) samples.push(outcome.latencyMs);
    }
  } finally {
    target.stop();
  }
  const sorted = samples.sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  return {
    target: '200 ms',
    runs: sorted.length,
    'median ms': median,
    'min ms': sorted[0] ?? 'n/a',
    'max ms': sorted.at(-1) ?? 'n/a',
    'error ms': fixed(median - 200, 0),
  };
}

const target = await startTargetProcess(0);
const rows: Record<string, string | number>[] = [];
try {
  for (const n of sizes) rows.push(await scale(n, target.url));
} finally {
  target.stop();
}
printTable(
  `Scheduler + http probe, ${intervalMs / 1000} s interval, ${seconds} s per size (node ${process.versions.node} ${process.execArgv.join(' ')}, ${process.platform})`,
  rows,
);
printTable('Latency accuracy (target answers after exactly 200 ms)', [await latencyAccuracy()]);
