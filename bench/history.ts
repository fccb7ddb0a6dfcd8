// npm run bench:history — what moving the history's journal into the rings costs (issue 26: at 80 %
// load the move at each 15 s tick is most of the main thread's burst). BENCH_CHECKS (3,500) checks
// with UUID guids and full rings (historySlots), then BENCH_ROUNDS rounds: 15 runs a check
// journaled in commits of 200 (as the result sink writes them, a 1 s interval between two ticks),
// then moved step by step as the tick does, a turn of the event loop between two commits or steps
// as in the agent. Prints the slowest journal commit, each move's time (its steps' own, without
// the turns), its steps and its slowest step: the slowest are those whose commit crosses the WAL
// checkpoint mark, and what store/journal-flush.ts writes ahead in the turns between is what they
// no longer wait for. Then the store's size on disk. Asserts nothing.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { agentDefaults } from '../src-main/agent/defaults.ts';
import { journalFlushOf, openDatabase, transaction } from '../src-main/agent/store/database.ts';
import { createHistory, type HistoryEntry } from '../src-main/agent/store/history.ts';
import { fixed, printTable } from './support.ts';

const checks = Number(process.env.BENCH_CHECKS ?? '3500');
const rounds = Number(process.env.BENCH_ROUNDS ?? '6');
const runsPerMove = 15;
const slots = agentDefaults.historySlots;
const file = join(mkdtempSync(join(tmpdir(), 'bench-history-')), 'agent.db');
const db = openDatabase(file);
const history = createHistory(db, slots);
const guids = Array.from({ length: checks }, () => randomUUID());
const start = Date.UTC(2026, 10, 21, 12, 0, 0);
let run = 0;

const entry = (guid: string, i: number): HistoryEntry => ({
  check_guid: guid,
  ran_at: new Date(start + i * 1000 + (i % 997)).toISOString(),
  success: i % 50 !== 0,
  skipped: false,
  http_status: i % 50 === 0 ? 503 : 200,
  latency_ms: 2 + (i % 13),
  error: i % 50 === 0 ? 'HTTP 503' : '',
});

/** A turn of the event loop, as the agent's commits and move steps each have one between them. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `runs` runs of every check, interleaved as a schedule runs them, in commits of 200, a turn of
 * the event loop between two; returns the slowest commit in ms.
 */
async function journal(runs: number): Promise<number> {
  const batch: HistoryEntry[] = [];
  let slowest = 0;
  const commit = (): void => {
    const began = performance.now();
    transaction(db, () => history.insert(batch.splice(0)));
    slowest = Math.max(slowest, performance.now() - began);
  };
  for (let r = 0; r < runs; r++, run++) {
    for (const guid of guids) {
      batch.push(entry(guid, run));
      if (batch.length === 200) {
        commit();
        await turn();
      }
    }
  }
  if (batch.length > 0) commit();
  return slowest;
}

const fillStart = performance.now();
for (let filled = 0; filled < slots; filled += runsPerMove) {
  await journal(runsPerMove);
  history.compactAll();
}
const fillMs = performance.now() - fillStart;
db.exec('PRAGMA wal_checkpoint(TRUNCATE)');

const rows: Record<string, string | number>[] = [];
for (let round = 1; round <= rounds; round++) {
  const slowestCommit = await journal(runsPerMove);
  let steps = 0;
  let slowest = 0;
  let busy = 0;
  for (let more = true; more;) {
    const stepStart = performance.now();
    more = history.compactStep();
    const took = performance.now() - stepStart;
    slowest = Math.max(slowest, took);
    busy += took;
    steps++;
    await turn();
  }
  rows.push({
    round,
    'slowest of the journal commits ms': fixed(slowestCommit, 1),
    'rows moved': checks * runsPerMove,
    'move ms': fixed(busy, 1),
    steps,
    'slowest step ms': fixed(slowest, 1),
  });
}
const flushes = journalFlushOf(db)?.counts().finished ?? 0;
const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
db.close();
printTable(
  `history move: ${checks} checks, ${slots}-slot rings full (filled in ${fixed(fillMs / 1000, 1)} s), ${runsPerMove} runs a check a move`,
  rows,
);
console.log(
  `store: ${fixed((pages * pageSize) / 1e6, 1)} MB in use (${fixed(statSync(file).size / 1e6, 1)} MB file), ${fixed((pages * pageSize) / (checks * slots), 1)} bytes a kept run; journal written ahead in the background ${flushes} times (store/journal-flush.ts)`,
);
