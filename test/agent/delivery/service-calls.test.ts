// Each failure kind has its one action where calls are recorded: `cancelled` (the stop aborted
// the call) and `not-enrolled` record nothing; `local-store` (the server took the results, the
// store could not clear them) is recorded as the loop's failure, as data, and says nothing about
// the connection. Pure: a fake clock and a client that answers from a table.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { agentDefaults } from '../../../src-main/agent/defaults.ts';
import { createServiceCalls } from '../../../src-main/agent/delivery/service-calls.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { failingApiClient } from '../../../src-main/agent/wire/api-client.ts';
import type { ApiError } from '../../../src-main/agent/wire/failure.ts';
import { createFakeClock } from '../../support/fake-clock.ts';

function setup(enrolled = true, random?: () => number) {
  const clock = createFakeClock();
  const live = createLiveState(initialState(new Date(clock.now()), 0));
  const client = failingApiClient({ kind: 'network', message: 'unused' });
  const calls = createServiceCalls({
    clock,
    log: silentLogger,
    tunables: agentDefaults,
    identity: () => (enrolled ? { apiKey: 'k', monitorId: 'm', server: 'https://s', client } : undefined),
    state: live.get,
    update: live.update,
    onReachable: () => undefined,
    onUnreachable: () => undefined,
    onAuthChanged: () => undefined,
    ...(random === undefined ? {} : { random }),
  });
  const fail = (error: ApiError) => calls.call('upload', undefined, () => Promise.resolve({ ok: false, error }));
  return { clock, live, calls, fail };
}

describe('recording failures by kind', () => {
  it('cancelled: nothing recorded', async () => {
    const { live, fail } = setup();
    await fail({ kind: 'cancelled', message: 'request cancelled' });
    expect(live.get().loops.upload).toEqual({ failures: 0 });
    expect(live.get().connection.state).toBe('connecting');
  });

  it('not enrolled: the call is not made, and its own kind says why', async () => {
    const { live, calls } = setup(false);
    const outcome = await calls.call('sync', undefined, () => Promise.resolve({ ok: true }));
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'not-enrolled' } });
    expect(live.get().loops.sync).toEqual({ failures: 0 });
  });

  it('local store: recorded as the loop failure, as data; the connection is unchanged', async () => {
    const { live, fail } = setup();
    await fail({ kind: 'local-store', message: 'delivered results could not be removed from the store' });
    expect(live.get().loops.upload).toMatchObject({ failures: 1, lastFailure: { kind: 'local-store' } });
    expect(live.get().connection.state).toBe('connecting');
  });

  it('a network failure is recorded with its cause, and the connection is unreachable', async () => {
    const { live, fail } = setup();
    await fail({ kind: 'network', cause: 'refused', message: 'could not reach: connection refused' });
    expect(live.get().loops.upload.lastFailure).toEqual({ kind: 'network', cause: 'refused' });
    expect(live.get().connection).toMatchObject({ state: 'unreachable', lastFailure: { cause: 'refused' } });
  });

  it("a proxy's refusal (403 to the tunnel) is not contact with the server", async () => {
    const { live, fail } = setup();
    await fail({ kind: 'network', cause: 'proxy-denied', proxy: 'http://proxy:3128', status: 403, message: 'x' });
    expect(live.get().lastContactAt).toBeUndefined();
    expect(live.get().connection).toMatchObject({ state: 'unreachable', lastFailure: { cause: 'proxy-denied' } });
  });
});

describe('the heartbeat (ping) only when nothing else told the server this monitor is alive', () => {
  // Every call the server authenticates updates the monitor's last_seen_at (wire API, GET
  // /api/ping: "done by the authentication step"): an upload, a sync or a status a moment ago
  // already did what a ping would do. At rest (an upload every 10 s) two pings a minute were
  // two calls, each a wake-up and a connection, for nothing (issue 26).
  const pingMs = agentDefaults.pingIntervalMs;
  const accepted = () => Promise.resolve({ ok: true as const });

  it('after a call the server accepted, the ping waits a whole period from that call', async () => {
    const { clock, calls } = setup(true, () => 0.5);
    let pings = 0;
    const ping = calls.paced('ping', pingMs, () => {
      pings++;
      return accepted();
    });
    const signal = new AbortController().signal;
    await clock.advance(40_000);
    await calls.call('upload', undefined, accepted);
    await clock.advance(10_000);
    // Due by its own period, but the upload 10 s ago counts: the next look is 20 s from now.
    expect(await ping(signal)).toBe(pingMs - 10_000);
    expect(pings).toBe(0);
    await clock.advance(pingMs - 10_000);
    expect(await ping(signal)).toBe(pingMs);
    expect(pings).toBe(1);
  });

  it('a call the server refused or never answered does not stand in for it', async () => {
    for (const error of [
      { kind: 'server', status: 503, message: 'x' },
      { kind: 'network', cause: 'refused', message: 'x' },
    ] satisfies ApiError[]) {
      const { calls, fail } = setup(true, () => 0.5);
      let pings = 0;
      const ping = calls.paced('ping', pingMs, () => {
        pings++;
        return accepted();
      });
      await fail(error);
      await ping(new AbortController().signal);
      expect([error.kind, pings]).toEqual([error.kind, 1]);
    }
  });

  it('while the key is refused the ping is the recheck, and calls whatever went before', async () => {
    const { clock, calls, live } = setup(true, () => 0.5);
    let pings = 0;
    const ping = calls.paced('ping', pingMs, () => {
      pings++;
      return accepted();
    });
    await calls.call('upload', undefined, accepted);
    await calls.call('sync', undefined, () =>
      Promise.resolve({ ok: false, error: { kind: 'auth', status: 401, message: 'x' } }),
    );
    expect(live.get().auth).toBe('key-rejected');
    await clock.advance(2 * agentDefaults.authRetryMs);
    await ping(new AbortController().signal);
    expect(pings).toBe(1);
  });
});
