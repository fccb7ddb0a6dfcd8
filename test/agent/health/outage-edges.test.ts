// Issue 27 point 9, the edges of an outage, on a fake clock: the connectivity probe is scripted
// (each verdict settles when the test says), everything else is the real policy and store.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import type { Connectivity, Reachability } from '../../../src-main/agent/health/connectivity.ts';
import { createOfflinePolicy, type OfflinePolicy } from '../../../src-main/agent/health/offline-policy.ts';
import { statusBody } from '../../../src-main/agent/health/status-body.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import type { ProbeOutcome } from '../../../src-main/agent/probes/types.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';
import { passedRun, unansweredRun } from '../../support/probe-outcomes.ts';

/** A run that got no answer and took `totalMs` (a timeout). */
const noAnswer = (totalMs: number): ProbeOutcome =>
  unansweredRun({ decidedBy: 'timeout', error: `timed out after ${totalMs / 1000} s`, timings: { totalMs } });

const answeredOk: ProbeOutcome = passedRun({ timings: { totalMs: 5 } });

/** Connectivity probes that take `probeMs` on the fake clock and return what the network is now. */
function scriptedConnectivity(clock: FakeClock, probeMs: number): Connectivity & { network: Reachability } {
  const script = {
    network: 'online' as Reachability,
    probe: () =>
      new Promise<Reachability>((resolve) => {
        // The verdict is what the network was when the probe started: a timeout started in the dark.
        const verdict = script.network;
        clock.setTimer(verdict === 'online' ? 1 : probeMs, () => resolve(verdict));
      }),
  };
  return script;
}

function setup(): {
  clock: FakeClock;
  policy: OfflinePolicy;
  net: { network: Reachability };
  offlineCount: () => number;
} {
  const clock = createFakeClock();
  const net = scriptedConnectivity(clock, 3_000);
  let offlines = 0;
  const policy = createOfflinePolicy({
    db: openDatabase(':memory:'),
    clock,
    log: silentLogger,
    live: createLiveState(initialState(new Date(clock.now()), 0)),
    targets: () => [],
    timeoutMs: 3_000,
    offlineProbeMs: 1_000,
    onOffline: () => offlines++,
    onOnline: () => undefined,
    connectivity: net,
  });
  return { clock, policy, net, offlineCount: () => offlines };
}

describe('outage edges (fake clock)', () => {
  it("a run with no answer while the agent's other checks get answers is a real failure, and no outage starts", async () => {
    const { clock, policy, net } = setup();
    net.network = 'offline'; // the server's address is dark
    await clock.advance(10_000); // the dead LAN host's run timed out after 10 s ...
    // ... while another check got an answer in those 10 s.
    const other = policy.skipsRun(answeredOk);
    expect(await other).toBe(false);
    await clock.advance(1);
    const verdict = policy.skipsRun(noAnswer(10_000));
    await clock.advance(3_000);
    expect(await verdict).toBe(false);
    expect(policy.offline).toBe(false);
  });

  it('an answer that comes while the connectivity probe waits in the dark still counts', async () => {
    const { clock, policy, net } = setup();
    net.network = 'offline';
    await clock.advance(10_000);
    const verdict = policy.skipsRun(noAnswer(10_000));
    await clock.advance(1_000);
    expect(await policy.skipsRun(answeredOk)).toBe(false);
    await clock.advance(2_000);
    expect(await verdict).toBe(false);
    expect(policy.offline).toBe(false);
  });

  it('a run that started while an outage was open is judged by it, even when the network is back before its verdict', async () => {
    const { clock, policy, net } = setup();
    net.network = 'offline';
    const first = policy.skipsRun(noAnswer(1_000));
    await clock.advance(3_000);
    expect(await first).toBe(true);
    expect(policy.offline).toBe(true);
    // A healthy check starts now, in the outage; the network returns 9 s later, the server
    // answers, and the run times out at 10 s: it never saw the network.
    await clock.advance(9_000);
    net.network = 'online';
    policy.serverAnswered();
    expect(policy.offline).toBe(false);
    await clock.advance(1_000);
    expect(await policy.skipsRun(noAnswer(10_000))).toBe(true);
    // A run that started after the recovery is judged on its own.
    await clock.advance(10_000);
    const after = policy.skipsRun(noAnswer(5_000));
    await clock.advance(10);
    expect(await after).toBe(false);
  });

  it('a connectivity probe that started during the outage and ends after it opens no new outage; the status keeps the real one', async () => {
    const { clock, policy, net, offlineCount } = setup();
    net.network = 'offline';
    const first = policy.skipsRun(noAnswer(1_000));
    await clock.advance(3_000);
    expect(await first).toBe(true);
    await clock.advance(55_000);
    // The watch probes in the dark ...
    const round = policy.watch();
    await clock.advance(1_000);
    // ... the server answers meanwhile: the outage (56 s) is over ...
    net.network = 'online';
    policy.serverAnswered();
    expect(policy.lastOutage?.durationSec).toBe(56);
    // ... and the probe's late "no answer" opens nothing.
    await clock.advance(2_000);
    await round;
    expect(policy.offline).toBe(false);
    expect(offlineCount()).toBe(1);
    const body = statusBody({ version: '1.0.0', ranForMs: 1, unsent: 0, lastOutage: policy.lastOutage });
    expect(body.last_outage_sec).toBe(56);
  });
});
