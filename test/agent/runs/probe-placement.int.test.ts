// Where runs are probed: the main thread below the threshold, the probe thread from it, back
// once the demand falls; contexts with functions stay; a thread that dies is not started again,
// and one that outgrew its memory bound is, without the bound.
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-main/agent/base/log.ts';
import { createProbePlacement, type ProbePlacement } from '../../../src-main/agent/runs/probe-placement.ts';
import { brokenProbeThreadEntry } from '../../support/broken-probe-thread.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';
import { definition } from '../probes/definition.ts';

let http: HttpTarget;
beforeAll(async () => {
  http = await startHttpTarget({ '/': { body: 'up' }, '/late': { body: 'late', delayMs: 300 } });
});
afterAll(async () => {
  await http.close();
});

let placement: ProbePlacement | undefined;
afterEach(async () => {
  await placement?.close();
  placement = undefined;
});

function place(options: { threshold: number; threadEntry?: URL }) {
  let demand = 0;
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  placement = createProbePlacement({
    demand: () => demand,
    threadFromRunsPerSec: options.threshold,
    log: createLogger(sink, 'info'),
    ...(options.threadEntry === undefined ? {} : { threadEntry: options.threadEntry }),
  });
  return { placement, setDemand: (d: number) => (demand = d), lines };
}

const up = () => definition({ url: `${http.url}/` });
const late = () => definition({ url: `${http.url}/late` });

describe('probe placement', () => {
  it('probes in the main thread below the threshold, in the thread from it, and back once the demand falls', async () => {
    const { placement: p, setDemand, lines } = place({ threshold: 100 });
    setDemand(99);
    expect(await p.probe(up(), {})).toMatchObject({ success: true });
    expect(p.threaded()).toBe(false);

    setDemand(100);
    expect(await p.probe(up(), {})).toMatchObject({ success: true });
    expect(p.threaded()).toBe(true);
    expect(lines.at(-1)?.msg).toMatch(/probed in a thread of their own/);

    // Between three quarters of the threshold and the threshold: no flapping, it stays.
    setDemand(80);
    expect(await p.probe(up(), {})).toMatchObject({ success: true });
    expect(p.threaded()).toBe(true);

    // Below: the idle thread ends, the run is probed here.
    setDemand(10);
    expect(await p.probe(up(), {})).toMatchObject({ success: true });
    expect(p.threaded()).toBe(false);
    expect(lines.at(-1)?.msg).toMatch(/probed in the main thread again/);
  });

  it('keeps a run whose context holds functions (an injected resolver) in the main thread', async () => {
    const { placement: p, setDemand } = place({ threshold: 1 });
    setDemand(1000);
    // The name exists only for this resolver: run anywhere else, the probe could not reach it.
    const resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 as const }]);
    const url = new URL(http.url);
    const out = await p.probe(definition({ url: `http://only-here.test:${url.port}/` }), { resolve });
    expect(out).toMatchObject({ success: true, httpStatus: 200 });
    expect(p.threaded()).toBe(false);
  });

  it('after the thread died, probes in the main thread for good and says so once', async () => {
    const { placement: p, setDemand, lines } = place({ threshold: 1, threadEntry: brokenProbeThreadEntry });
    setDemand(1000);
    const before = http.requests.length;
    expect(await p.probe(up(), {})).toMatchObject({ success: true });
    expect(await p.probe(up(), {})).toMatchObject({ success: true });
    expect(http.requests.length - before).toBe(2);
    expect(p.threaded()).toBe(false);
    const errors = lines.filter((l) => l.level >= 50);
    expect(errors.map((l) => l.msg)).toEqual([
      expect.stringMatching(/probe thread stopped unexpectedly; its runs were started again/),
    ]);
  });

  it('after the thread outgrew its memory bound, starts the next one without it, losing no run', async () => {
    const hungry = new URL('../../support/hungry-probe-thread.ts', import.meta.url);
    const { placement: p, setDemand, lines } = place({ threshold: 1, threadEntry: hungry });
    setDemand(1000);
    const before = http.requests.length;
    // The first thread is ended at its limit with these runs in it: they run again here.
    const first = await Promise.all([p.probe(up(), {}), p.probe(up(), {})]);
    expect(first.map((o) => o.success)).toEqual([true, true]);
    expect(p.threaded()).toBe(false);
    // The next run starts a thread with the process's own limit, which probes it.
    expect(await p.probe(late(), {})).toMatchObject({ success: true });
    expect(p.threaded()).toBe(true);
    expect(http.requests.length - before).toBe(3);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.filter((l) => /ran out of the memory/.test(l.msg)).map((l) => l.msg)).toEqual([
      expect.stringMatching(/^the probe thread ran out of the memory it starts with; its runs were started again/),
    ]);
  });

  it("reports the probe thread's busy share: none without a thread, more while runs keep it working than while they wait on a slow target", async () => {
    const { placement: p, setDemand } = place({ threshold: 100 });
    setDemand(99);
    await p.probe(up(), {});
    expect(p.threadBusyShare()).toBeUndefined();

    setDemand(100);
    await p.probe(up(), {});
    p.threadBusyShare(); // from here
    for (let batch = 0; batch < 8; batch++) {
      const outcomes = await Promise.all(Array.from({ length: 64 }, () => p.probe(up(), {})));
      expect(outcomes.every((o) => o.success)).toBe(true);
    }
    const working = p.threadBusyShare();

    const waiting = await Promise.all(Array.from({ length: 8 }, () => p.probe(late(), {})));
    expect(waiting.every((o) => o.success)).toBe(true);
    const idle = p.threadBusyShare();

    expect(working).toBeGreaterThan(0);
    expect(working).toBeLessThanOrEqual(1);
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(idle).toBeLessThan(working ?? 0);
  });
});
