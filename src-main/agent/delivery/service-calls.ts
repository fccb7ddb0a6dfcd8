// Every call to the server goes through here, so that each failure kind gets its one action in
// one place: loop state, auth state (401/403), connectivity, and how long to wait next.
import { backoffDelay } from './backoff.ts';
import type { Clock } from '../base/clock.ts';
import type { AgentTunables } from '../defaults.ts';
import type { Logger } from '../base/log.ts';
import {
  clockSkewLimitSec,
  loopFailed,
  loopSucceeded,
  type AgentState,
  type AuthState,
  type LoopName,
} from '../live/state.ts';
import { nextConnection } from '../live/connection.ts';
import type { ApiClient } from '../wire/api-client.ts';
import { factsOf, nextTry, type ApiError } from '../wire/failure.ts';
import type { Identity } from '../identity/identity.ts';

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
  /** Randomness for the recheck spread; injectable so tests can pin it. */
  random?: () => number;
}

export interface ServiceCalls {
  /** Runs one call with the current identity and records what its outcome means. */
  call<T extends Outcome>(
    loop: LoopName,
    signal: AbortSignal | undefined,
    fn: (client: ApiClient, apiKey: string, signal: AbortSignal | undefined) => Promise<T>,
  ): Promise<T | { ok: false; error: ApiError }>;
  /**
   * Wraps a loop body: a run woken early (a full batch waiting) still respects the backoff, and
   * the returned delay follows the outcome. While the server rejects this monitor (401/403),
   * only the ping loop calls: one light request every authRetryMs to 2 x authRetryMs; the other
   * loops wait, and are woken when it is accepted again (issue 12 §6).
   */
  paced(
    loop: LoopName,
    intervalMs: number,
    run: (signal: AbortSignal) => Promise<Outcome>,
  ): (signal: AbortSignal) => Promise<number>;
  /** Forgets every backoff: the cause is gone (the settings changed, the server accepts us). */
  resetBackoff(): void;
  /**
   * Forgets every backoff, and has each loop wait a random part of a fifth of its interval first:
   * after an outage a whole fleet sees the server again in the same moment (design.md "Fleet
   * compatibility"). Trigger the loops after this; they wait their stagger.
   */
  resumeStaggered(): void;
}

/** Periods carry ±10 %, so a fleet restarted together drifts apart instead of calling in step. */
export const periodJitter = 0.1;

const notEnrolled: ApiError = {
  kind: 'not-enrolled',
  message: 'this agent is not enrolled yet; enroll it with a token first',
};

export function createServiceCalls(deps: ServiceCallsDeps): ServiceCalls {
  const notBefore: Record<LoopName, number> = { sync: 0, upload: 0, status: 0, ping: 0 };
  const intervals: Partial<Record<LoopName, number>> = {};
  const now = (): Date => new Date(deps.clock.now());
  const random = deps.random ?? Math.random;
  let skewReported = false;
  /** When the server last accepted a call, any loop's (monotonic ms): see the ping in paced. */
  let acceptedAt: number | undefined;

  function authAfter(error: ApiError | undefined): AuthState | undefined {
    if (error === undefined) return 'ok';
    if (error.kind === 'auth') return 'key-rejected';
    if (error.kind === 'disabled') return 'monitor-disabled';
    if (error.kind === 'damaged-key') return 'key-damaged';
    // Other failures say nothing about the key.
    return undefined;
  }

  /** Says once (and again once it is fixed) that the clocks disagree; timestamps stay ours. */
  function noteSkew(skewSec: number | undefined): number | undefined {
    if (skewSec === undefined) return undefined;
    const off = Math.abs(skewSec) > clockSkewLimitSec;
    if (off && !skewReported) {
      deps.log.warn(
        { clockSkewSec: skewSec },
        `this machine's clock is ${Math.abs(skewSec)} s ${skewSec > 0 ? 'behind' : 'ahead of'} the server's; set it right (automatic time). Results keep this machine's time.`,
      );
    } else if (!off && skewReported) {
      deps.log.info("this machine's clock agrees with the server's again");
    }
    skewReported = off;
    return skewSec;
  }

  function record(loop: LoopName, outcome: Outcome, skewSec: number | undefined): void {
    const at = now();
    const error = outcome.ok ? undefined : outcome.error;
    // Aborted by the stop: it says nothing about the server. (Not enrolled never gets here.)
    if (error?.kind === 'cancelled' || error?.kind === 'not-enrolled') return;
    if (error === undefined) acceptedAt = deps.clock.monotonic();
    const before = deps.state().auth;
    const auth = authAfter(error) ?? before;
    // A local store failure happened after the server's 200: it answered. A status from the proxy
    // (403, 407, 502 to the tunnel) is the proxy's answer, not the server's: no contact with it.
    const answered =
      error === undefined || (error.status !== undefined && error.proxy === undefined) || error.kind === 'local-store';
    if (answered) deps.onReachable();
    if (error !== undefined && (error.kind === 'network' || error.kind === 'timeout')) deps.onUnreachable();
    if (error !== undefined)
      deps.log.warn(
        { kind: error.kind, loop },
        `${loop} failed: ${error.message}${error.action === undefined ? '' : `; ${error.action}`}`,
      );
    if (auth !== before) {
      if (auth === 'key-rejected')
        deps.log.error('the server refused the API key (401): it was reset. Re-enroll this agent with a new token.');
      if (auth === 'monitor-disabled')
        deps.log.error('the server says this monitor is disabled (403): probing is paused until it is enabled again.');
      if (auth === 'key-damaged')
        deps.log.error(
          'the stored API key is damaged and cannot be sent: enroll this agent again, or reclaim its monitor id.',
        );
    }
    const skew = noteSkew(skewSec);
    deps.update((s) => {
      const { connectionProblem: _old, ...rest } = s;
      // A failure the user can fix (the classifier gave it an action) stays until the server answers.
      const problem = error?.action === undefined ? (answered ? undefined : s.connectionProblem) : factsOf(error);
      return {
        ...rest,
        auth,
        ...(answered ? { lastContactAt: at.toISOString() } : {}),
        ...(skew === undefined ? {} : { clockSkewSec: skew }),
        ...(problem === undefined ? {} : { connectionProblem: problem }),
        connection: nextConnection(s.connection, error, at.toISOString()),
        loops: {
          ...s.loops,
          [loop]:
            error === undefined ? loopSucceeded(at) : loopFailed(s.loops[loop], at, error.message, factsOf(error)),
        },
      };
    });
    // Rejected: the next recheck is one spread delay away, whatever the ping interval says.
    if (auth !== before && auth !== 'ok') notBefore.ping = deps.clock.monotonic() + recheckDelay();
    if (auth !== before) deps.onAuthChanged(before);
  }

  const jittered = (ms: number): number => ms * (1 + periodJitter * (2 * random() - 1));

  /** 15-30 s with the defaults: spread, so that many rejected monitors do not call in step. */
  const recheckDelay = (): number => deps.tunables.authRetryMs * (1 + random());

  function delayAfter(loop: LoopName, outcome: Outcome, intervalMs: number): number {
    if (outcome.ok) return jittered(intervalMs);
    switch (nextTry[outcome.error.kind]) {
      case 'recheck':
        // 401/403/damaged key: the user must act; until then the agent is quiet.
        return recheckDelay();
      case 'next-period':
      case 'no-fault':
        return jittered(intervalMs);
      case 'backoff':
        return Math.min(intervalMs * 10, backoffDelay(deps.state().loops[loop].failures, deps.tunables.retryBackoff));
    }
  }

  return {
    async call(loop, signal, fn) {
      const identity = deps.identity();
      if (identity === undefined) return { ok: false, error: notEnrolled };
      const outcome = await fn(identity.client, identity.apiKey, signal);
      record(loop, outcome, identity.client.clockSkewSec());
      return outcome;
    },
    resetBackoff() {
      for (const loop of Object.keys(notBefore) as LoopName[]) notBefore[loop] = 0;
    },
    resumeStaggered() {
      for (const loop of Object.keys(notBefore) as LoopName[])
        notBefore[loop] = deps.clock.monotonic() + random() * 2 * periodJitter * (intervals[loop] ?? 0);
    },
    paced(loop, intervalMs, run) {
      intervals[loop] = intervalMs;
      return async (signal) => {
        const wait = notBefore[loop] - deps.clock.monotonic();
        if (wait > 0) return wait;
        // Rejected: only the ping asks again; the rest wait to be woken when it is accepted.
        if (deps.state().auth !== 'ok' && loop !== 'ping') return Math.max(intervalMs, 2 * deps.tunables.authRetryMs);
        // The heartbeat only when no other call told the server we are alive within its period:
        // the server's authentication step updates last_seen_at on every call it accepts (wire
        // API, GET /api/ping), so at rest the uploads every 30 s leave the ping little to do.
        if (loop === 'ping' && deps.state().auth === 'ok' && acceptedAt !== undefined) {
          const wait = jittered(intervalMs) - (deps.clock.monotonic() - acceptedAt);
          if (wait > 0) return wait;
        }
        const outcome = await run(signal);
        const delay = delayAfter(loop, outcome, intervalMs);
        // Only failures hold back an early wake-up; after a success a trigger may run at once.
        notBefore[loop] = outcome.ok ? 0 : deps.clock.monotonic() + delay;
        return delay;
      };
    },
  };
}
