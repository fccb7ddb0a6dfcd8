// npm run bench:tls — what an https probe costs in CPU against a loopback TLS target in its own
// process, with the office's own CA trusted (`--checks-ca`): the runs sharing one TLS context, as
// the agent runs them (base/trusted-roots.ts), against a context built for each connection, as
// each run did before (a new list each run, so none is shared). Then what building one context
// costs. BENCH_RUNS probes (default 400), 8 in flight, each on a fresh connection, three rounds
// alternating. Prints a table; asserts nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { trustWith } from '../src-main/agent/base/trusted-roots.ts';
import { runProbe } from '../src-main/agent/probes/index.ts';
import type { ProbeContext } from '../src-main/agent/probes/types.ts';
import { makeCa, makeLeaf } from '../test/targets/certs.ts';
import { fixed, printTable, startTargetProcess } from './support.ts';

const runs = Number(process.env.BENCH_RUNS ?? '400');
const inFlight = 8;
const rounds = 3;

const ca = await makeCa('Bench Office CA');
const folder = mkdtempSync(join(tmpdir(), 'bench-tls-'));
const tlsFile = join(folder, 'target.json');
writeFileSync(tlsFile, JSON.stringify(await makeLeaf({ ca })));
const target = await startTargetProcess(0, tlsFile);
const office = [ca.cert];

/** CPU ms per probe over `runs` probes; every one must pass, or the figure measures a failure. */
async function cpuPerProbe(context: () => ProbeContext): Promise<number> {
  let next = 0;
  const started = process.cpuUsage();
  const worker = async (): Promise<void> => {
    while (next++ < runs) {
      const outcome = await runProbe({ url: target.url, match_string: 'ok' }, context());
      if (!outcome.success) throw new Error(`the probe failed: ${outcome.error}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / runs;
}

/** CPU ms to build one TLS context with `options`. */
function contextCost(options: { ca?: string[] }): number {
  const times = 50;
  const started = process.cpuUsage();
  for (let i = 0; i < times; i++) createSecureContext(options);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / times;
}

try {
  const shared: number[] = [];
  const perConnection: number[] = [];
  await cpuPerProbe(() => ({ ca: office })); // warm-up
  for (let round = 0; round < rounds; round++) {
    shared.push(await cpuPerProbe(() => ({ ca: office })));
    perConnection.push(await cpuPerProbe(() => ({ ca: [...office] })));
  }
  const range = (values: number[]): string => `${fixed(Math.min(...values), 3)}–${fixed(Math.max(...values), 3)}`;
  printTable(`bench:tls — ${runs} https probes a round, ${inFlight} in flight, ${rounds} rounds, one extra CA`, [
    { case: 'probe, one TLS context for every run (the agent)', 'CPU ms': range(shared) },
    { case: 'probe, a TLS context built for each connection', 'CPU ms': range(perConnection) },
    { case: "building one context: Node's default trust", 'CPU ms': fixed(contextCost({}), 3) },
    {
      case: "building one context: Node's default trust plus one CA",
      'CPU ms': fixed(contextCost({ ca: trustWith([ca.cert]) }), 3),
    },
  ]);
} finally {
  target.stop();
  rmSync(folder, { recursive: true, force: true });
}
