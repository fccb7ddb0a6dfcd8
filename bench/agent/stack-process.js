// The settled stack alone, as the agent loads it (design.md "Stack"): Node's HTTP client (the
// probes), undici (the API client), zod, node:sqlite in WAL mode and pino, each put to use,
// then idle, holding no check. What `uptime-agent run` weighs before its first check, so issue
// 14's memory goals can be read against it. argv: url folder [thread]: with "thread", a second
// thread also loads and uses the HTTP client, as the probe thread does past 1,500 runs a second.
// Tells its parent "idle" once settled; the parent reads /proc and stops it. Plain JavaScript,
// like the built command: a .ts file would make Node load its type-stripping compiler
// (WebAssembly, ~10 MB resident here) into the very figure this measures.
import { join } from 'node:path';
import { pino } from 'pino';
import { z } from 'zod';
import { Agent, request as apiRequest } from 'undici';
import { probeOnce } from './stack-probe.js';

// Node's own modules as the agent loads them (eslint.config.js says why).
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
const { Worker } = process.getBuiltinModule('node:worker_threads');

const [url = '', folder = '', thread = ''] = process.argv.slice(2);
const uses = 50;

for (let i = 0; i < uses; i++) await probeOnce(url);

const api = new Agent({ connections: 4, pipelining: 1 });
for (let i = 0; i < uses; i++) await (await apiRequest(url, { dispatcher: api })).body.text();
await api.close();

const answer = z.object({
  id: z.string(),
  interval: z.number().int().positive(),
  kind: z.enum(['http', 'tcp', 'tls']),
  tags: z.array(z.string()),
});
for (let i = 0; i < uses; i++) answer.parse({ id: `c${i}`, interval: 60, kind: 'http', tags: ['a'] });

const db = new DatabaseSync(join(folder, 'stack.db'));
db.exec(
  'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)',
);
const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
for (let commit = 0; commit < uses; commit++) {
  db.exec('BEGIN');
  for (let i = 0; i < 100; i++) insert.run(JSON.stringify({ commit, i, ok: true, latency_ms: 1.5 }));
  db.exec('COMMIT');
}

pino({ level: 'info' }, pino.destination({ dest: join(folder, 'stack.log'), sync: true })).info(
  { uses },
  'stack loaded',
);

if (thread === 'thread') {
  const worker = new Worker(new URL('./stack-probe.js', import.meta.url), { workerData: { url, uses } });
  worker.unref();
  await new Promise((resolve) => worker.once('message', resolve));
}

// Settled: the collector has run and nothing is in flight.
await new Promise((resolve) => setTimeout(resolve, 2_000));
process.send?.('idle');
setInterval(() => undefined, 60_000);
