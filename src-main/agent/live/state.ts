// The agent's live state, beyond what the store holds: what the loops last saw. The UI and the
// tray read it through the agent's snapshot; every change is announced to subscribers.
import type { LoadReport } from '../schedule/load.ts';
import type { LocalFault } from '../base/local-fault.ts';
import type { FailureFacts } from '../wire/failure.ts';

/** Why results cannot be saved, as facts: the kind, the data folder, and the runs dropped from memory. */
export interface StoreFault {
  kind: 'disk-full' | 'write-failed';
  folder: string;
  dropped: number;
}

export type AuthState = 'ok' | 'key-rejected' | 'monitor-disabled' | 'key-damaged';

/** Beyond this, the server's clock and ours disagree enough to say so (design.md "Clocks"). */
export const clockSkewLimitSec = 60;

export type LoopName = 'sync' | 'upload' | 'status' | 'ping';

export interface LoopState {
  lastOkAt?: string;
  lastAttemptAt?: string;
  /** The last failure, one line for the log, cleared by the next success. */
  lastError?: string;
  /** The same failure as data (kind, cause): what the window words. Cleared by the next success. */
  lastFailure?: FailureFacts;
  /** Consecutive failures, for backoff and for the UI. */
  failures: number;
}

export interface UploadProgress {
  /**
   * Rows delivered by the drain in progress. Of how many is delivered plus what waits now (the
   * outbox's count in the same snapshot): a drain also sends what arrives during it.
   */
  delivered: number;
}

/**
 * The server as this agent last found it, decided once here (delivery/service-calls.ts) for the
 * window, the tray and `status --json`: connected at the first call of any kind the server takes,
 * unreachable while calls get no usable answer, rejected (401, or a key that cannot be sent) and
 * disabled (403) until it accepts this monitor again. connecting: no call has ended yet.
 */
export type ConnectionStateName = 'connecting' | 'connected' | 'unreachable' | 'rejected' | 'disabled';

export interface ConnectionState {
  state: ConnectionStateName;
  /** When this state began (ISO); absent while connecting. */
  since?: string;
  /** The last call the server took (ISO). */
  lastSuccessAt?: string;
  /** What put it in an unreachable, rejected or disabled state. */
  lastFailure?: FailureFacts;
}

export interface AgentState {
  startedAt: string;
  /** Paused by the user. */
  paused: boolean;
  auth: AuthState;
  /** Last time the server answered anything at all. */
  lastContactAt?: string;
  online: boolean;
  /** When the current outage started, while offline. */
  offlineSince?: string;
  loops: Record<LoopName, LoopState>;
  uploading?: UploadProgress;
  /** Results dropped because the outbox bound was hit (since the data folder was created). */
  droppedResults: number;
  /** Failed runs kept locally as skipped because the agent was offline, since it started. */
  skippedOffline: number;
  /** Server clock minus this machine's, in seconds, at the last answer with a Date header. */
  clockSkewSec?: number;
  /**
   * The last failure to reach the server that the user can fix (a proxy refusing, an untrusted
   * certificate): what happened and what to do. Cleared when the server answers again.
   */
  connectionProblem?: FailureFacts;
  connection: ConnectionState;
  /** Why results cannot be saved right now (a full disk), in words; absent while they can. */
  storeProblem?: string;
  /** While storeProblem: the same as facts, for the window's words (no SQLite text). */
  storeFault?: StoreFault;
  /** While storeProblem: results waiting in memory for the store. */
  unsavedResults?: number;
  /** Whether probing keeps up (schedule/load.ts); absent until probing has run a while. */
  load?: LoadReport;
  /** Runs are failing because this machine ran out of something (health/local-faults.ts). */
  localFault?: { fault: LocalFault; since: string; runs: number };
  /** When that load sample was taken (ISO). */
  loadSampledAt?: string;
}

export function initialState(now: Date, droppedResults: number): AgentState {
  const idle = (): LoopState => ({ failures: 0 });
  return {
    startedAt: now.toISOString(),
    paused: false,
    auth: 'ok',
    online: true,
    loops: { sync: idle(), upload: idle(), status: idle(), ping: idle() },
    droppedResults,
    skippedOffline: 0,
    connection: { state: 'connecting' },
  };
}

export function loopSucceeded(at: Date): LoopState {
  return { lastOkAt: at.toISOString(), lastAttemptAt: at.toISOString(), failures: 0 };
}

export function loopFailed(loop: LoopState, at: Date, error: string, failure?: FailureFacts): LoopState {
  return {
    ...loop,
    lastAttemptAt: at.toISOString(),
    lastError: error,
    ...(failure === undefined ? {} : { lastFailure: failure }),
    failures: loop.failures + 1,
  };
}

/** The one live state value, replaced on every change; subscribers hear of each change. */
export interface LiveState {
  readonly get: () => AgentState;
  readonly update: (change: (s: AgentState) => AgentState) => void;
  /** Calls listener after every change; returns the unsubscribe function. */
  readonly onChange: (listener: () => void) => () => void;
}

export function createLiveState(initial: AgentState): LiveState {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    update: (change) => {
      state = change(state);
      for (const listener of listeners) listener();
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
