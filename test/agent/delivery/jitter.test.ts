// Sync, status, ping and upload periods carry ±10 % jitter, and the loops resume staggered after
// an outage, so a fleet restarted together does not call the server in lockstep (issue 24 §9).
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { createServiceCalls, type ServiceCalls } from '../../../src-main/agent/delivery/service-calls.ts';
import { agentDefaults } from '../../../src-main/agent/defaults.ts';
import { createLiveState, initialState, type LoopName } from '../../../src-main/agent/live/state.ts';
import { failingApiClient } from '../../../src-main/agent/wire/api-client.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';

function agentCalls(clock: FakeClock): ServiceCalls {
  const live = createLiveState(initialState(new Date(clock.now()), 0));
  return createServiceCalls({
    clock,
    log: silentLogger,
    tunables: agentDefaults,
    identity: () => ({
      apiKey: 'k',
      monitorId: 'm',
      server: 'http://127.0.0.1:9',
      client: failingApiClient({ kind: 'network', message: 'unused' }),
    }),
    state: live.get,
    update: live.update,
    onReachable: () => undefined,
    onUnreachable: () => undefined,
    onAuthChanged: () => undefined,
  });
}

const loops: [LoopName, number][] = [
  ['sync', agentDefaults.syncIntervalMs],
  ['status', agentDefaults.statusIntervalMs],
  ['ping', agentDefaults.pingIntervalMs],
  ['upload', agentDefaults.uploadIntervalMs],
];

describe('jitter on the service loops', () => {
  it.each(loops)(
    '%s: over many periods every wait is within a tenth of the interval either way, and they spread',
    async (loop, interval) => {
      const clock = createFakeClock();
      const step = agentCalls(clock).paced(loop, interval, () => Promise.resolve({ ok: true }));
      const signal = new AbortController().signal;
      const waits: number[] = [];
      for (let i = 0; i < 500; i++) {
        const wait = await step(signal);
        waits.push(wait);
        await clock.advance(wait);
      }
      for (const wait of waits) {
        expect(wait).toBeGreaterThanOrEqual(interval * 0.9);
        expect(wait).toBeLessThanOrEqual(interval * 1.1);
      }
      // Spread over the band, not bunched at the interval: both ends of it are reached.
      expect(Math.min(...waits)).toBeLessThan(interval * 0.95);
      expect(Math.max(...waits)).toBeGreaterThan(interval * 1.05);
    },
  );

  it('after an outage, a fleet of agents resumes staggered, not in the same moment', async () => {
    const clock = createFakeClock();
    const interval = agentDefaults.uploadIntervalMs;
    const firstCalls: number[] = [];
    const fleet = Array.from({ length: 50 }, () => agentCalls(clock));
    const steps = fleet.map((calls) =>
      calls.paced('upload', interval, () => {
        firstCalls.push(clock.monotonic());
        return Promise.resolve({ ok: true });
      }),
    );
    const signal = new AbortController().signal;
    // The connectivity came back for all of them at once.
    for (const calls of fleet) calls.resumeStaggered();
    const waits = await Promise.all(steps.map((step) => step(signal)));
    expect(firstCalls).toEqual([]);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(interval * 0.2);
    }
    expect(new Set(waits.map((w) => Math.round(w / 100))).size).toBeGreaterThan(10);
  });
});
