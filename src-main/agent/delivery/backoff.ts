// Retry delays as a pure function: it returns the next delay and never sleeps, so it is tested
// without waiting.
export interface BackoffPolicy {
  /** Delay after the first failure. */
  baseMs: number;
  /** Ceiling for any delay. */
  maxMs: number;
  /** Growth per consecutive failure. */
  factor: number;
  /** Fraction of the delay randomised (0..1) so many agents do not retry in step. */
  jitter: number;
}

/**
 * The delay after `attempt` consecutive failures: base*factor^(attempt-1), capped, less a random
 * part of up to `jitter` of it, so retries spread out but never exceed the cap.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponent = Math.max(0, attempt - 1);
  const raw = Math.min(policy.maxMs, policy.baseMs * policy.factor ** exponent);
  const spread = raw * policy.jitter * random();
  return Math.round(raw - spread);
}
