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

function setup(enrolled = true) {
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
  });
  const fail = (error: ApiError) => calls.call('upload', undefined, () => Promise.resolve({ ok: false, error }));
  return { live, calls, fail };
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
