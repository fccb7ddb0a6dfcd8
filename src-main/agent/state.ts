// The agent's live state, beyond what the store holds: what the loops last saw. The UI and the
// tray read it through the agent's snapshot; every change is announced to subscribers.
export type AuthState = 'ok' | 'key-rejected' | 'monitor-disabled';

export interface LoopState {
  lastOkAt?: string;
  lastAttemptAt?: string;
  /** The last failure, one line, cleared by the next success. */
  lastError?: string;
  /** Consecutive failures, for backoff and for the UI. */
  failures: number;
}

export interface AgentState {
  startedAt: string;
  paused: boolean;
  auth: AuthState;
  sync: LoopState;
}

export function initialState(now: Date): AgentState {
  return { startedAt: now.toISOString(), paused: false, auth: 'ok', sync: { failures: 0 } };
}

export function loopSucceeded(loop: LoopState, at: Date): LoopState {
  return { lastOkAt: at.toISOString(), lastAttemptAt: at.toISOString(), failures: 0 };
}

export function loopFailed(loop: LoopState, at: Date, error: string): LoopState {
  return { ...loop, lastAttemptAt: at.toISOString(), lastError: error, failures: loop.failures + 1 };
}
