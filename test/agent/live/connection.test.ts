// Every transition of the one connection state, from the outcome of a call.
import { describe, expect, it } from 'vitest';
import { nextConnection } from '../../../src-main/agent/live/connection.ts';
import type { ConnectionState } from '../../../src-main/agent/live/state.ts';
import { apiErrorKinds, type ApiErrorKind } from '../../../src-main/agent/wire/failure.ts';

const t0 = '2026-11-21T10:00:00.000Z';
const t1 = '2026-11-21T10:01:00.000Z';
const connected: ConnectionState = { state: 'connected', since: t0, lastSuccessAt: t0 };

const after: Record<ApiErrorKind, ConnectionState['state']> = {
  network: 'unreachable',
  timeout: 'unreachable',
  server: 'unreachable',
  'invalid-answer': 'unreachable',
  auth: 'rejected',
  'damaged-key': 'rejected',
  disabled: 'disabled',
  // The server answered and took the key; only this payload was refused.
  rejected: 'connected',
  // Say nothing about the server.
  'local-store': 'connected',
  'not-enrolled': 'connected',
  cancelled: 'connected',
};

describe('nextConnection', () => {
  it('connecting becomes connected at the first successful call', () => {
    expect(nextConnection({ state: 'connecting' }, undefined, t0)).toEqual(connected);
  });

  it.each(apiErrorKinds.map((kind) => ({ kind, state: after[kind] })))(
    'a connected agent after a $kind failure is $state',
    ({ kind, state }) => {
      const next = nextConnection(connected, { kind, message: 'log line' }, t1);
      expect(next.state).toBe(state);
      expect(next.lastSuccessAt).toBe(t0);
      expect(next.since).toBe(state === 'connected' ? t0 : t1);
      if (state !== 'connected') expect(next.lastFailure).toEqual({ kind });
    },
  );

  it('stays unreachable since the first failure, and is connected again at the next success', () => {
    const down = nextConnection(connected, { kind: 'network', cause: 'refused', message: 'x' }, t1);
    const still = nextConnection(down, { kind: 'timeout', cause: 'timeout', message: 'x' }, '2026-11-21T10:02:00.000Z');
    expect(still).toMatchObject({ state: 'unreachable', since: t1, lastFailure: { kind: 'timeout' } });
    expect(nextConnection(still, undefined, '2026-11-21T10:03:00.000Z')).toEqual({
      state: 'connected',
      since: '2026-11-21T10:03:00.000Z',
      lastSuccessAt: '2026-11-21T10:03:00.000Z',
    });
  });
});
