// Every tunable of the agent, with the reason for its value. Callers override them per run
// (CLI flags, settings); nothing else hard-codes these numbers.
import type { BackoffPolicy } from './backoff.ts';

export const agentDefaults = {
  /** Check changes on the server reach the agent within a minute, at one small GET a minute. */
  syncIntervalMs: 60_000,
  /** Results reach the server within seconds; a full batch is sent at once anyway. */
  uploadIntervalMs: 10_000,
  /** The server's Monitors page refreshes its health view about once a minute. */
  statusIntervalMs: 60_000,
  /** Heartbeat: often enough for last_seen_at to tell a dead agent quickly. */
  pingIntervalMs: 30_000,
  /**
   * After 401 (key reset) or 403 (monitor disabled) the agent asks again at most once a minute
   * per endpoint: the user has to act on the server, so hammering it helps nobody.
   */
  authRetryMs: 60_000,
  /** Network and 5xx failures: retry soon, then back off to five minutes at most. */
  retryBackoff: { baseMs: 2_000, maxMs: 300_000, factor: 2, jitter: 0.5 } satisfies BackoffPolicy,
};

export type AgentTunables = typeof agentDefaults;
