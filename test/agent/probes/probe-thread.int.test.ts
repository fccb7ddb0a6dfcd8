// The probe thread against real loopback targets: the same outcomes as in the main thread,
// network settings per run, cancellation, and a thread that dies losing no run.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import {
  createProbeThread,
  portable,
  probeThreadName,
  type ProbeThread,
  type ThreadLoss,
} from '../../../src-main/agent/probes/probe-thread.ts';
import type { ProbeOutcome } from '../../../src-main/agent/probes/types.ts';
import {
  closedPort,
  makeCa,
  makeLeaf,
  startHttpTarget,
  startTcpTarget,
  startTlsTarget,
  type HttpTarget,
  type KeyPair,
  type SocketTarget,
} from '../../targets/index.ts';
import { brokenProbeThreadEntry } from '../../support/broken-probe-thread.ts';
import { eventually } from '../../support/agent-harness.ts';
import { definition } from './definition.ts';

let http: HttpTarget;
let tcp: SocketTarget;
let tls: SocketTarget;
let ca: KeyPair;
beforeAll(async () => {
  ca = await makeCa();
  http = await startHttpTarget({
    '/': { body: 'all systems up' },
    '/down': { status: 503, body: 'maintenance' },
    '/hang': { body: 'late', delayMs: 8000 },
  });
  tcp = await startTcpTarget({ banner: 'SSH-2.0-test\r\n' });
  tls = await startTlsTarget(await makeLeaf({ ca }));
});
afterAll(async () => {
  await Promise.all([http.close(), tcp.close(), tls.close()]);
});

let thread: ProbeThread | undefined;
afterEach(async () => {
  await thread?.close();
  thread = undefined;
});

const losses: ThreadLoss[] = [];
const openThread = (entry?: URL): ProbeThread => {
  thread = createProbeThread({
    onLost: (loss) => losses.push(loss),
    ...(entry === undefined ? {} : { entry }),
  });
  return thread;
};

/** What must not depend on the thread: everything but the measured times. */
const verdict = (o: ProbeOutcome) => ({
  ...o,
  latencyMs: o.latencyMs > 0,
  timings: o.timings === undefined ? undefined : Object.keys(o.timings).sort(),
});

describe('probe thread', () => {
  it('gives the outcome the main thread gives, for http, tcp, tls and a refusal', async () => {
    const t = openThread();
    const refused = `tcp://127.0.0.1:${await closedPort()}`;
    const cases = [
      { def: definition({ url: `${http.url}/`, match_string: 'systems' }), ctx: { sampleChars: 100 } },
      { def: definition({ url: `${http.url}/down` }), ctx: { sampleChars: 100 } },
      { def: definition({ url: tcp.url }), ctx: { sampleChars: 100 } },
      { def: definition({ url: tls.url }), ctx: { ca: [ca.cert] } },
      { def: definition({ url: refused }), ctx: {} },
    ];
    const threaded = cases.map(({ def, ctx }) => t.probe(def, ctx));
    // Handed over, not run here: all five are in the thread until their outcomes come back.
    expect(t.inFlight()).toBe(5);
    const there = await Promise.all(threaded);
    const here = await Promise.all(cases.map(({ def, ctx }) => runProbe(def, ctx)));
    expect(there.map(verdict)).toEqual(here.map(verdict));
    expect(there.map((o) => o.success)).toEqual([true, false, true, true, false]);
    expect(there[0]?.timings?.connectMs).toEqual(expect.any(Number));
    expect(t.inFlight()).toBe(0);
    expect(losses).toEqual([]);
  });

  it('uses the network settings each run was started with, when they change between runs', async () => {
    const t = openThread();
    const def = definition({ url: tls.url });
    // Started in one turn, so they cross in one message: the change must not leak across runs.
    const runs = [
      t.probe(def, { ca: [ca.cert] }),
      t.probe(def, {}),
      t.probe(def, { ca: [ca.cert], egressPolicy: 'strict' }),
      t.probe(def, { ca: [ca.cert] }),
    ];
    const [trusted, untrusted, strict, trustedAgain] = await Promise.all(runs);
    expect(trusted).toMatchObject({ success: true });
    expect(untrusted).toMatchObject({ success: false, decidedBy: 'certificate' });
    expect(strict).toMatchObject({ success: false, decidedBy: 'egress-policy' });
    expect(trustedAgain).toMatchObject({ success: true });
  });

  it('cancels the runs of a signal that aborts, and refuses to start one on an aborted signal', async () => {
    const t = openThread();
    const stop = new AbortController();
    const before = http.requests.length;
    const runs = [1, 2, 3].map(() =>
      t.probe(definition({ url: `${http.url}/hang`, timeout_sec: 30 }), { signal: stop.signal }),
    );
    const other = t.probe(definition({ url: `${http.url}/` }), { signal: new AbortController().signal });
    await expect.poll(() => http.requests.length - before, { timeout: 5000 }).toBe(4);
    stop.abort();
    for (const outcome of await Promise.all(runs))
      expect(outcome).toMatchObject({ cancelled: true, decidedBy: 'cancelled' });
    // Another signal's run is not touched.
    expect(await other).toMatchObject({ success: true });
    expect(await t.probe(definition({ url: `${http.url}/` }), { signal: stop.signal })).toMatchObject({
      cancelled: true,
    });
  });

  it('gives back a run still in flight as cancelled when it is closed', async () => {
    const t = openThread();
    const run = t.probe(definition({ url: `${http.url}/hang`, timeout_sec: 30 }), {});
    await t.close();
    expect(await run).toMatchObject({ cancelled: true });
    expect(await t.probe(definition({ url: `${http.url}/` }), {})).toMatchObject({ cancelled: true });
  });

  it('does not count its own start-up as busy: only its loop after its first answer is measured', async () => {
    // Loading the thread's modules keeps its loop busy for its first few hundred ms; read as the
    // runs' load, that halved the run cap (runs/run-cap.ts) at every thread start, and runs that
    // came due then waited for a slot behind runs that were only waiting on slow targets.
    const t = openThread();
    const before = http.requests.filter((r) => r.path === '/hang').length;
    const run = t.probe(definition({ url: `${http.url}/hang`, timeout_sec: 30 }), {});
    // The request is out: the thread has loaded its modules and now only waits on the target.
    await eventually(
      () => http.requests.filter((r) => r.path === '/hang').length > before,
      10_000,
      'the thread sending its first request',
    );
    expect(t.busyShare()).toBe(0);
    await t.close();
    expect(await run).toMatchObject({ cancelled: true });
  });

  it('loses no run when the thread dies: its runs and every later one run in the main thread', async () => {
    losses.length = 0;
    const t = openThread(brokenProbeThreadEntry);
    const before = http.requests.length;
    const runs = await Promise.all([
      t.probe(definition({ url: `${http.url}/` }), {}),
      t.probe(definition({ url: tcp.url }), {}),
    ]);
    expect(runs.map((o) => o.success)).toEqual([true, true]);
    expect(http.requests.length - before).toBe(1);
    expect(losses.map((l) => [l.kind, l.reason.message])).toEqual([['failed', 'probe thread bug']]);
    expect(await t.probe(definition({ url: `${http.url}/down` }), {})).toMatchObject({
      success: false,
      httpStatus: 503,
    });
    expect(losses).toHaveLength(1);
  });

  it('carries its name as its operating-system thread name, so top, perf and the bench can tell it apart', async () => {
    /** The names of this process's threads (/proc/self/task/TID/comm); a thread gone meanwhile is skipped. */
    const threadNames = (): string[] =>
      readdirSync('/proc/self/task').flatMap((tid) => {
        try {
          return [readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()];
        } catch {
          return [];
        }
      });
    const before = threadNames().filter((name) => name === probeThreadName).length;
    const t = openThread();
    // Its first run has come back: the thread is up and named.
    await t.probe(definition({ url: tcp.url }), {});
    expect(threadNames().filter((name) => name === probeThreadName)).toHaveLength(before + 1);
  });

  it('takes only contexts without functions: injected clocks and resolvers stay in their thread', () => {
    expect(portable({ ca: ['x'], egressPolicy: 'strict', sampleChars: 5, signal: new AbortController().signal })).toBe(
      true,
    );
    expect(portable({ now: () => 0 })).toBe(false);
    expect(portable({ wallClock: () => new Date() })).toBe(false);
    expect(portable({ resolve: () => Promise.resolve([]) })).toBe(false);
  });
});
