// The whole agent with its probes in a thread of their own (as past probeThreadFromRunsPerSec):
// results are committed, uploaded and reach the server as they do from the main thread.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-main/agent/base/log.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

let harness: Harness | undefined;
let target: HttpTarget | undefined;
afterEach(async () => {
  await harness?.close();
  await target?.close();
  harness = undefined;
  target = undefined;
});

describe('agent with a probe thread', () => {
  it('uploads the results of runs probed in the thread', async () => {
    target = await startHttpTarget({ '/': { body: 'fine' }, '/down': { status: 503, body: 'maintenance' } });
    const messages: string[] = [];
    const log = createLogger(
      new Writable({
        write: (chunk: Buffer, _enc, done) => {
          messages.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
          done();
        },
      }),
      'info',
    );
    // Any demand at all is past a threshold of 0.
    harness = await enrolledAgent({ tunables: { probeThreadFromRunsPerSec: 0 }, agent: { log } });
    const { server, orgId, agent, monitorId } = harness;
    const up = server.admin.createCheck({ name: 'up', url: `${target.url}/`, interval_sec: 1, orgId });
    const down = server.admin.createCheck({ name: 'down', url: `${target.url}/down`, interval_sec: 1, orgId });
    server.admin.assign(up.guid, monitorId);
    server.admin.assign(down.guid, monitorId);
    await agent.syncNow();

    const stored = await eventually(
      () => {
        const results = server.results(monitorId);
        const ofUp = results.filter((r) => r.checkGuid === up.guid);
        const ofDown = results.filter((r) => r.checkGuid === down.guid);
        return ofUp.length >= 2 && ofDown.length >= 2 ? { ofUp, ofDown } : undefined;
      },
      15_000,
      'two uploaded results of each check',
    );
    expect(stored.ofUp[0]).toMatchObject({ success: true, httpStatus: 200 });
    expect(stored.ofUp[0]?.latencyMs).toBeGreaterThan(0);
    expect(stored.ofDown[0]).toMatchObject({ success: false, httpStatus: 503 });
    expect(stored.ofDown[0]?.error).toMatch(/503/);
    expect(messages).toContainEqual(expect.stringMatching(/probed in a thread of their own/));
  });

  it('keeps the full cap while runs wait on slow targets (the thread idle): a fast check never waits behind them', async () => {
    target = await startHttpTarget({ '/': { body: 'fine' }, '/slow': { body: 'late', delayMs: 2500 } });
    // Five slow checks and a fast one fill the six slots exactly; were the cap lowered to the
    // busy cap of 1, every run would wait for the one in flight.
    harness = await enrolledAgent({
      tunables: { probeThreadFromRunsPerSec: 0, concurrency: 6, busyConcurrency: 1 },
    });
    const { server, orgId, agent, monitorId } = harness;
    for (let i = 0; i < 5; i++) {
      const slow = server.admin.createCheck({ name: `slow ${i}`, url: `${target.url}/slow`, interval_sec: 1, orgId });
      server.admin.assign(slow.guid, monitorId);
    }
    const fast = server.admin.createCheck({ name: 'fast', url: `${target.url}/`, interval_sec: 1, orgId });
    server.admin.assign(fast.guid, monitorId);
    await agent.syncNow();

    // Past the start-up spread and two slow runs of each slow check: the cap was judged many times.
    await eventually(
      () => {
        const slowRuns = target?.requests.filter((r) => r.path === '/slow').length ?? 0;
        return slowRuns >= 10 && (agent.snapshot().scheduler?.executed ?? 0) >= 20 ? true : undefined;
      },
      30_000,
      'ten slow runs and twenty runs in all',
    );
    const stats = agent.snapshot().scheduler;
    // The slow checks overlap their own next runs (their targets' doing), but no run waited for a slot.
    expect(stats?.skippedOverlap).toBeGreaterThan(0);
    expect(stats).toMatchObject({ startedAfterWait: 0, skippedBacklog: 0 });
  }, 40_000);
});
