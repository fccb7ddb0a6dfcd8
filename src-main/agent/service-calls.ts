// Every call to the server goes through here, so that each failure kind gets its one action in
// one place: loop state, auth state (401/403), connectivity, and how long to wait next.
import { backoffDelay } from './backoff.ts';
import type { Clock } from './clock.ts';
import type { AgentTunables } from './defaults.ts';
import type { Logger } from './log.ts';
import { loopFailed, loopSucceeded, type AgentState, type AuthState, type LoopName } from './state.ts';
import type { ApiClient } from './wire/api-client.ts';
import type { ApiError } from './wire/api-error.ts';

export interface Identity {
  apiKey: string;
  monitorId: string;
  server: string;
  client: ApiClient;
}

type Outcome = { ok: true } | { ok: false; error: ApiError };

export interface ServiceCallsDeps {
  clock: Clock;
  log: Logger;
  tunables: AgentTunables;
  identity: () => Identity | undefined;
  state: () => AgentState;
  update: (change: (s: AgentState) => AgentState) => void;
  /** The server answered (whatever it said): the network is fine. */
  onReachable: () => void;
  /** The server could not be reached: maybe this machine is offline. */
  onUnreachable: () => void;
  onAuthChanged: (before: AuthState) => void;
}

export interface ServiceCalls {
  /** Runs one call with the current identity and records what its outcome means. */
  call<T extends Outcome>(
    loop: LoopName,
    signal: AbortSignal | undefined,
    fn: (client: ApiClient, apiKey: string, signal: AbortSignal | undefined) => Promise<T>,
  ): Promise<T | { ok: false; error: ApiError }>;
  /**
   * Wraps a loop body: a run woken early (a full batch waiting) still respects the backoff or
   * the once-a-minute auth retry, and the returned delay follows the outcome.
   */
  paced(loop: LoopName, intervalMs: number, run: (signal: AbortSignal) => Promise<Outcome>): (signal: AbortSignal) => Promise<number>;
  /** Forgets every backoff: the cause is gone (connectivity is back, the server accepts us). */
  resetBackoff(): void;
}

const notEnrolled: ApiError = { kind: 'cancelled', message: 'this agent is not enrolled yet; enroll it with a token first' };

export function createServiceCalls(deps: ServiceCallsDeps): ServiceCalls {
  const notBefore: Record<LoopName, number> = { sync: 0, upload: 0, status: 0, ping: 0 };
  const now = (): Date => new Date(deps.clock.now());

  function authAfter(error: ApiError | undefined): AuthState | undefined {
    if (error === undefined) return 'ok';
    if (error.kind === 'auth') return 'key-rejected';
    if (error.kind === 'disabled') return 'monitor-disabled';
    // Other failures say nothing about the key.
    return undefined;
  }

  function record(loop: LoopName, outcome: Outcome): void {
    const at = now();
    const error = outcome.ok ? undefined : outcome.error;
    if (error?.kind === 'cancelled') return;
    const before = deps.state().auth;
    const auth = authAfter(error) ?? before;
    if (error === undefined || error.status !== undefined) deps.onReachable();
    if (error !== undefined && (error.kind === 'network' || error.kind === 'timeout')) deps.onUnreachable();
    if (error !== undefined) deps.log.warn({ kind: error.kind, loop }, `${loop} failed: ${error.message}`);
    if (auth !== before) {
      if (auth === 'key-rejected') deps.log.error('the server refused the API key (401): it was reset. Re-enroll this agent with a new token.');
      if (auth === 'monitor-disabled') deps.log.error('the server says this monitor is disabled (403): probing is paused until it is enabled again.');
    }
    deps.update((s) => ({
      ...s,
      auth,
      ...(error === undefined || error.status !== undefined ? { lastContactAt: at.toISOString() } : {}),
      loops: { ...s.loops, [loop]: error === undefined ? loopSucceeded(at) : loopFailed(s.loops[loop], at, error.message) },
    }));
    if (auth !== before) deps.onAuthChanged(before);
  }

  function delayAfter(loop: LoopName, outcome: Outcome, intervalMs: number): number {
    if (outcome.ok) return intervalMs;
    const { kind } = outcome.error;
    if (kind === 'auth' || kind === 'disabled') return deps.tunables.authRetryMs;
    // A refused payload is not cured by waiting less; the next regular run tries again.
    if (kind === 'rejected' || kind === 'cancelled') return intervalMs;
    return Math.min(intervalMs * 10, backoffDelay(deps.state().loops[loop].failures, deps.tunables.retryBackoff));
  }

  return {
    async call(loop, signal, fn) {
      const identity = deps.identity();
      if (identity === undefined) return { ok: false, error: notEnrolled };
      const outcome = await fn(identity.client, identity.apiKey, signal);
      record(loop, outcome);
      return outcome;
    },
    resetBackoff() {
      for (const loop of Object.keys(notBefore) as LoopName[]) notBefore[loop] = 0;
    },
    paced(loop, intervalMs, run) {
      return async (signal) => {
        const wait = notBefore[loop] - deps.clock.monotonic();
        if (wait > 0) return wait;
        const outcome = await run(signal);
        const delay = delayAfter(loop, outcome, intervalMs);
        // Only failures hold back an early wake-up; after a success a trigger may run at once.
        notBefore[loop] = outcome.ok ? 0 : deps.clock.monotonic() + delay;
        return delay;
      };
    },
  };
}
