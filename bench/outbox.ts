// npm run bench:outbox — how fast results are committed (batched transactions, as the agent's
// result sink does), and how long a 100,000-result backlog takes to drain into the reference
// server on loopback (the server in its own process). Prints tables; asserts nothing
// (targets: >= 20,000 results/s committed; the backlog drained in <= 15 s).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { systemClock } from '../src-main/agent/base/clock.ts';
import { drainOutbox } from '../src-main/agent/delivery/uploader.ts';
import { enroll } from '../src-main/agent/identity/enrollment.ts';
import { fileKeyVault } from '../src-main/agent/identity/key-vault.ts';
import { createResultSink } from '../src-main/agent/results/result-sink.ts';
import { openDatabase, type Database } from '../src-main/agent/store/database.ts';
import { createHistory, type HistoryEntry } from '../src-main/agent/store/history.ts';
import { createOutbox, type Outbox } from '../src-main/agent/store/outbox.ts';
import { createApiClient } from '../src-main/agent/wire/api-client.ts';
import type { WireResult } from '../src-main/agent/wire/schemas.ts';
import { fixed, printTable } from './support.ts';

const commitCount = Number(process.env.BENCH_COMMITS ?? '200000');
const backlog = Number(process.env.BENCH_BACKLOG ?? '100000');

function result(guid: string, i: number): { result: WireResult; history: HistoryEntry } {
  const ran_at = new Date(Date.UTC(2026, 10, 21) + i * 10).toISOString();
  const result: WireResult = {
    check_guid: guid,
    monitor_id: 'bench',
    ran_at,
    success: i % 10 !== 0,
    http_status: 200,
    latency_ms: 12,
    ...(i % 10 === 0 ? { error: 'status 503, expected less than 400' } : { response_sample: 'ok' }),
  };
  return {
    result,
    history: {
      check_guid: guid,
      ran_at,
      success: result.success,
      skipped: false,
      http_status: 200,
      latency_ms: 12,
      error: result.error ?? '',
    },
  };
}

function store(): { db: Database; outbox: Outbox; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-outbox-'));
  const db = openDatabase(join(dir, 'agent.db'));
  return { db, outbox: createOutbox(db, { maxCount: 1_000_000, maxBytes: 1 << 30 }), dir };
}

function commitRate(): Record<string, string | number> {
  const { db, outbox } = store();
  const history = createHistory(db, 300);
  const sink = createResultSink({
    db,
    outbox,
    history,
    clock: systemClock,
    maxBatch: 500,
    onCommitted: () => undefined,
    onProblem: (_problem, e) => console.error(e),
  });
  const records = Array.from({ length: commitCount }, (_, i) => result(`check-${i % 1000}`, i));
  const start = performance.now();
  for (const record of records) sink.add(record);
  sink.flush();
  const seconds = (performance.now() - start) / 1000;
  const rows = outbox.count();
  db.close();
  return {
    results: rows,
    'batch size': 500,
    seconds: fixed(seconds, 2),
    'results/s': Math.round(rows / seconds),
    'with history ring': 'yes',
  };
}

async function drainTime(): Promise<Record<string, string | number>> {
  const server = spawn(
    process.execPath,
    [
      new URL(
        import.meta.url.endsWith('.ts') ? '../test/reference-server/main.ts' : '../test/reference-server/main.js',
        import.meta.url,
      ).pathname,
      '--print-json',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
    const { url, token } = JSON.parse(line) as { url: string; token: string };
    const { db, outbox, dir } = store();
    const vault = fileKeyVault(dir);
    const enrolled = await enroll(
      { server: url, token, name: 'bench', region: 'r', country: 'c', city: 'x' },
      { dataDir: dir, vault, client: (s) => createApiClient({ baseUrl: s, userAgent: 'bench' }) },
    );
    if (!enrolled.ok) throw new Error(enrolled.message);
    // The demo seed assigns its checks to every monitor of its organisation.
    const guids = ['demo-api-reachable', 'demo-tcp-port', 'demo-always-down'];
    const rows = Array.from({ length: backlog }, (_, i) => result(guids[i % guids.length] ?? '', i).result);
    outbox.insert(rows);
    const client = createApiClient({ baseUrl: url, userAgent: 'bench' });
    const apiKey = (await vault.load())?.apiKey ?? '';
    const start = performance.now();
    const outcome = await drainOutbox({ outbox, client, apiKey, now: () => new Date() });
    const seconds = (performance.now() - start) / 1000;
    await client.close();
    db.close();
    if (!outcome.ok) throw new Error(outcome.error.message);
    return {
      backlog,
      checks: guids.length,
      calls: outcome.report.calls,
      accepted: outcome.report.accepted,
      seconds: fixed(seconds, 2),
      'results/s': Math.round(backlog / seconds),
      'left in outbox': outbox.count(),
    };
  } finally {
    server.kill();
  }
}

printTable(`Outbox commits (node ${process.versions.node}, WAL, synchronous=NORMAL)`, [commitRate()]);
printTable('Backlog drain into the reference server on loopback (separate process)', [await drainTime()]);
