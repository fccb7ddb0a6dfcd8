// The one connection state (live/state.ts ConnectionState), moved by the outcome of each server
// call. Pure, so that every transition is tested without a server.
import type { ConnectionState, ConnectionStateName } from './state.ts';
import type { ApiError } from '../wire/failure.ts';
import { factsOf } from '../wire/failure.ts';

/** The state a call's failure puts the connection in; undefined: it says nothing about it. */
function stateAfter(error: ApiError): ConnectionStateName | undefined {
  switch (error.kind) {
    case 'auth':
    case 'damaged-key':
      return 'rejected';
    case 'disabled':
      return 'disabled';
    case 'network':
    case 'timeout':
    case 'server':
    case 'invalid-answer':
      return 'unreachable';
    // The server answered and took the key; it refused this payload only.
    case 'rejected':
      return 'connected';
    case 'local-store':
    case 'not-enrolled':
    case 'cancelled':
      return undefined;
  }
}

/** The connection after one call ended at `at` (ISO): ok, or failed with error. */
export function nextConnection(before: ConnectionState, error: ApiError | undefined, at: string): ConnectionState {
  if (error === undefined) {
    return { state: 'connected', since: before.state === 'connected' ? (before.since ?? at) : at, lastSuccessAt: at };
  }
  const state = stateAfter(error);
  if (state === undefined) return before;
  const lastSuccess = before.lastSuccessAt === undefined ? {} : { lastSuccessAt: before.lastSuccessAt };
  const since = before.state === state ? (before.since ?? at) : at;
  if (state === 'connected') return { state, since, ...lastSuccess };
  return { state, since, ...lastSuccess, lastFailure: factsOf(error) };
}
