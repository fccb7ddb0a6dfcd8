// What the agent offers its two hosts (the headless command and the Electron main process) and
// what they give it; agent.ts builds it.
import type { AgentStore } from './store/agent-store.ts';
import type { CheckInsight } from './read/check-insight.ts';
import type { ExtraProbeContext } from './runs/check-runner.ts';
import type { Clock } from './base/clock.ts';
import type { AgentTunables } from './defaults.ts';
import type { UploadOutcome } from './delivery/uploader.ts';
import type { ResendOutcome } from './delivery/upload-loop.ts';
import type { EnrollInput, EnrollOutcome } from './identity/enrollment.ts';
import type { CallFailure, IdentityView } from './identity/identity.ts';
import type { KeyVault } from './identity/key-vault.ts';
import type { Logger } from './base/log.ts';
import type { ReadModel } from './read/read-model.ts';
import type { RunnableSet } from './checks/runnable-checks.ts';
import type { AgentState } from './live/state.ts';
import type { SyncOutcome } from './checks/sync.ts';
import type { CheckTransition } from './runs/transitions.ts';
import type { NetworkSettings } from './wire/network.ts';
import type { CheckDefinition } from './wire/schemas.ts';

export type { CallFailure } from './identity/identity.ts';

export interface AgentOptions {
  dataDir: string;
  vault: KeyVault;
  log?: Logger;
  clock?: Clock;
  tunables?: Partial<AgentTunables>;
  /** Extra probe context, e.g. a test CA the probes should trust. */
  probeContext?: ExtraProbeContext;
  /** The private definitions file to load and watch. */
  privateChecksFile?: string;
  /** An already opened store of dataDir (tests seed it); by default the agent opens its own. */
  store?: AgentStore;
  /** Proxy, CA files and egress policy (README "Office networks"); setNetwork() changes them. */
  network?: NetworkSettings;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** The running agent; what it shows comes from its read model (read-model.ts). */
export interface Agent extends ReadModel {
  /** Starts the loops when enrolled; an agent that is not enrolled waits for enroll(). */
  start(): Promise<void>;
  /** Stops scheduling, lets runs in flight finish, tries a last upload, closes the store. */
  stop(): Promise<void>;
  enroll(input: EnrollInput): Promise<EnrollOutcome>;
  syncNow(): Promise<SyncOutcome | CallFailure>;
  /** Drains the outbox now, whatever the backoff says (a user asked). */
  uploadNow(): Promise<UploadOutcome | CallFailure>;
  /** Moves the results set aside as refused back to the outbox and uploads now (a user asked). */
  resendSetAside(): Promise<ResendOutcome>;
  isEnrolled(): boolean;
  identity(): IdentityView | undefined;
  /** Stops starting check runs (sync, upload and health go on); resume() continues on the grid. */
  pause(): void;
  resume(): void;
  /** The checks being run, those waiting for a local definition, and local entries the server lacks. */
  runnable(): RunnableSet;
  /** Uses (loads and watches) another private definitions file; undefined stops using one. */
  setPrivateChecksFile(file: string | undefined): Promise<void>;
  /** Reads the private definitions file again now. */
  reloadPrivateChecks(): Promise<void>;
  /** The local definition of a private check, for the UI's reveal-on-demand. */
  privateDefinition(guid: string): CheckDefinition | undefined;
  /** Forgets this monitor: key, identity and check set. Unsent results stay for a reclaim. */
  forget(): Promise<void>;
  /** Applies changed network settings: the server client and the next check runs use them. */
  setNetwork(settings: NetworkSettings): Promise<void>;
  state(): AgentState;
  /** Calls listener after every state change; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** Rollups, the event log and test runs: what the detail pane and the Events view read. */
  insight: Pick<CheckInsight, 'window' | 'events' | 'testRun'>;
  /** Calls listener when a check goes down or recovers (for notifications and the UI). */
  onTransition(listener: (transition: CheckTransition) => void): () => void;
  /**
   * The OS says the machine woke up (Electron powerMonitor `resume`): every check continues on
   * its grid from now, runs missed while asleep are not made up, and for a short grace period
   * runs that get no answer count as offline. Headless, the agent notices from its clocks.
   */
  clockJumped(): void;
}
