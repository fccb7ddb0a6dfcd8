// Composition root: wires the store, API client, key vault and loops into one agent that the
// headless command and the Electron main process both host.
import { backoffDelay } from './backoff.ts';
import { systemClock, type Clock } from './clock.ts';
import { agentDefaults, type AgentTunables } from './defaults.ts';
import { enroll as enrollWith, readEnrollment, type EnrollInput, type EnrollOutcome } from './enrollment.ts';
import type { KeyVault } from './key-vault.ts';
import { silentLogger, type Logger } from './log.ts';
import { startLoop, type Loop } from './loop.ts';
import { openDatabase, type Database } from './store/database.ts';
import { initialState, loopFailed, loopSucceeded, type AgentState } from './state.ts';
import { syncOnce, type SyncOutcome } from './sync.ts';
import { createApiClient, type ApiClient } from './wire/api-client.ts';
import type { ApiError } from './wire/api-error.ts';
import { userAgent } from './version.ts';
import { storeFile } from './data-dir.ts';
import { createCheckRunner } from './check-runner.ts';
import { runProbe } from './probes/index.ts';
import type { ProbeContext } from './probes/types.ts';
import { createResultSink, type ResultSink } from './results/result-sink.ts';
import { runnableChecks, type RunnableSet } from './runnable-checks.ts';
import { createScheduler, type Scheduler } from './schedule/scheduler.ts';
import { listChecks } from './store/checks.ts';
import { createHistory, type History } from './store/history.ts';
import { createOutbox, type Outbox } from './store/outbox.ts';
import type { CheckDefinition } from './wire/schemas.ts';

export interface AgentOptions {
  dataDir: string;
  vault: KeyVault;
  log?: Logger;
  clock?: Clock;
  tunables?: Partial<AgentTunables>;
  /** Extra probe context, e.g. a test CA the probes should trust. */
  probeContext?: Omit<ProbeContext, 'signal' | 'sampleChars'>;
}

export interface Agent {
  readonly db: Database;
  readonly outbox: Outbox;
  readonly history: History;
  /** Starts the loops when enrolled; an agent that is not enrolled waits for enroll(). */
  start(): Promise<void>;
  /** Stops every loop, waiting for work in progress, and closes the store. */
  stop(): Promise<void>;
  enroll(input: EnrollInput): Promise<EnrollOutcome>;
  /** Runs one sync now and resolves with its outcome. */
  syncNow(): Promise<SyncOutcome | { ok: false; error: ApiError }>;
  isEnrolled(): boolean;
  /** Stops starting check runs (sync, upload and health go on); resume() continues on the grid. */
  pause(): void;
  resume(): void;
  /** The checks being run, those waiting for a local definition, and local entries the server lacks. */
  runnable(): RunnableSet;
  /** Replaces the private definitions (guid -> definition) and reschedules. */
  setPrivateDefinitions(defs: ReadonlyMap<string, CheckDefinition>): void;
  schedulerStats(): ReturnType<Scheduler['stats']> | undefined;
  state(): AgentState;
  /** Calls listener after every state change; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export function createAgent(options: AgentOptions): Agent {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const tunables: AgentTunables = { ...agentDefaults, ...options.tunables };
  const db = openDatabase(storeFile(options.dataDir));
  const outbox = createOutbox(db, { maxCount: tunables.outboxMaxCount, maxBytes: tunables.outboxMaxBytes });
  const history = createHistory(db, tunables.historySlots);
  const listeners = new Set<() => void>();
  let state = initialState(new Date(clock.now()));
  let apiKey: string | undefined;
  let monitorId = '';
  let client: ApiClient | undefined;
  let loops: Loop[] = [];
  let scheduler: Scheduler | undefined;
  let privateDefs: ReadonlyMap<string, CheckDefinition> = new Map();
  let runnable: RunnableSet = runnableChecks([], privateDefs);
  let scheduledGuids = new Set<string>();

  const sink: ResultSink = createResultSink({
    db,
    outbox,
    history,
    clock,
    maxBatch: 500,
    onCommitted: ({ dropped }) => {
      if (dropped > 0) log.warn({ dropped }, 'the outbox is full; the oldest results were dropped');
    },
    onError: (error) => log.error({ err: error }, 'could not commit results; retrying'),
  });

  /** Recomputes what runs from the store and the private definitions, and tells the scheduler. */
  function refreshRunnable(): void {
    runnable = runnableChecks(listChecks(db), privateDefs);
    if (scheduler === undefined) return;
    for (const check of runnable.runnable.values()) scheduler.upsert({ guid: check.guid, intervalMs: check.intervalMs });
    for (const guid of scheduledGuids) if (!runnable.runnable.has(guid)) scheduler.remove(guid);
    scheduledGuids = new Set(runnable.runnable.keys());
  }

  function startScheduler(): void {
    scheduler = createScheduler({
      clock,
      concurrency: tunables.concurrency,
      startupSpreadMs: tunables.startupSpreadMs,
      onRunError: (guid, error) => log.error({ err: error, guid }, 'a check run failed unexpectedly'),
      run: createCheckRunner({
        lookup: (guid) => runnable.runnable.get(guid),
        probe: runProbe,
        sink,
        monitorId: () => monitorId,
        isOffline: () => false,
        ...(options.probeContext === undefined ? {} : { probeContext: options.probeContext }),
      }),
    });
    if (state.paused) scheduler.pause();
    scheduledGuids = new Set();
    refreshRunnable();
  }

  async function stopScheduler(): Promise<void> {
    const running = scheduler;
    scheduler = undefined;
    await running?.stop(tunables.stopGraceMs);
    sink.flush();
  }

  const update = (change: (s: AgentState) => AgentState): void => {
    state = change(state);
    for (const listener of listeners) listener();
  };

  const notEnrolled = (): { ok: false; error: ApiError } => ({
    ok: false,
    error: { kind: 'cancelled', message: 'this agent is not enrolled yet; enroll it with a token first' },
  });

  async function runSync(signal?: AbortSignal): Promise<SyncOutcome | { ok: false; error: ApiError }> {
    if (client === undefined || apiKey === undefined) return notEnrolled();
    const outcome = await syncOnce({ db, client, apiKey, log, ...(signal === undefined ? {} : { signal }) });
    const at = new Date(clock.now());
    if (outcome.ok) {
      const { summary } = outcome;
      if (summary.received > 0) {
        log.info({ ...summary }, 'checks synced');
        refreshRunnable();
      }
      update((s) => ({ ...s, auth: 'ok', sync: loopSucceeded(s.sync, at) }));
    } else if (outcome.error.kind !== 'cancelled') {
      log.warn({ kind: outcome.error.kind }, `sync failed: ${outcome.error.message}`);
      update((s) => ({ ...s, auth: authAfter(s.auth, outcome.error), sync: loopFailed(s.sync, at, outcome.error.message) }));
    }
    return outcome;
  }

  /** The wait before the next run of a loop, from the outcome of this one. */
  function nextDelay(ok: boolean, error: ApiError | undefined, intervalMs: number, failures: number): number {
    if (ok || error === undefined) return intervalMs;
    if (error.kind === 'auth' || error.kind === 'disabled') return tunables.authRetryMs;
    if (error.kind === 'rejected') return intervalMs;
    return backoffDelay(failures, tunables.retryBackoff);
  }

  function startLoops(): void {
    loops.push(
      startLoop({
        clock,
        onError: (error) => log.error({ err: error }, 'sync loop failed unexpectedly'),
        fallbackDelayMs: tunables.syncIntervalMs,
        run: async (signal) => {
          const outcome = await runSync(signal);
          return nextDelay(outcome.ok, outcome.ok ? undefined : outcome.error, tunables.syncIntervalMs, state.sync.failures);
        },
      }),
    );
  }

  async function stopLoops(): Promise<void> {
    const running = loops;
    loops = [];
    await Promise.all([...running.map((loop) => loop.stop()), stopScheduler()]);
  }

  async function loadIdentity(): Promise<boolean> {
    const enrollment = readEnrollment(db);
    const key = await options.vault.load();
    if (enrollment === undefined || key === undefined) return false;
    await client?.close();
    apiKey = key;
    monitorId = enrollment.monitorId;
    client = createApiClient({ baseUrl: enrollment.server, userAgent });
    return true;
  }

  return {
    db,
    outbox,
    history,
    async start() {
      if (await loadIdentity()) {
        startScheduler();
        startLoops();
      }
    },
    async stop() {
      await stopLoops();
      await client?.close();
      client = undefined;
      db.close();
    },
    async enroll(input) {
      await stopLoops();
      const outcome = await enrollWith(input, {
        db,
        vault: options.vault,
        client: (server) => createApiClient({ baseUrl: server, userAgent }),
        now: () => new Date(clock.now()),
      });
      if (outcome.ok) log.info({ monitorId: outcome.monitorId, server: outcome.server }, 'enrolled');
      if (await loadIdentity()) {
        update((s) => ({ ...s, auth: 'ok', sync: { failures: 0 } }));
        startScheduler();
        startLoops();
      }
      return outcome;
    },
    syncNow: () => runSync(),
    pause() {
      scheduler?.pause();
      update((s) => ({ ...s, paused: true }));
    },
    resume() {
      scheduler?.resume();
      update((s) => ({ ...s, paused: false }));
    },
    runnable: () => runnable,
    setPrivateDefinitions(defs) {
      privateDefs = defs;
      refreshRunnable();
      update((s) => s);
    },
    schedulerStats: () => scheduler?.stats(),
    isEnrolled: () => apiKey !== undefined,
    state: () => state,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function authAfter(current: AgentState['auth'], error: ApiError): AgentState['auth'] {
  if (error.kind === 'auth') return 'key-rejected';
  if (error.kind === 'disabled') return 'monitor-disabled';
  return current;
}
