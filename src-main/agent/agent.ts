// Composition root: wires the store, API client, key vault, scheduler and loops into one agent
// that the headless command and the Electron main process both host.
import { systemClock, type Clock } from './clock.ts';
import { createCheckRunner } from './check-runner.ts';
import { storeFile } from './data-dir.ts';
import { agentDefaults, type AgentTunables } from './defaults.ts';
import { drainOutbox, type UploadOutcome } from './delivery/uploader.ts';
import { enroll as enrollWith, readEnrollment, type EnrollInput, type EnrollOutcome } from './enrollment.ts';
import { createConnectivity, endpointOf, parseEndpoint, type Endpoint } from './health/connectivity.ts';
import { createOutageTracker } from './health/outages.ts';
import { statusBody } from './health/status-body.ts';
import type { KeyVault } from './key-vault.ts';
import { silentLogger, type Logger } from './log.ts';
import { startLoop, type Loop } from './loop.ts';
import { runProbe } from './probes/index.ts';
import type { ProbeContext, ProbeOutcome } from './probes/types.ts';
import { createResultSink } from './results/result-sink.ts';
import { runnableChecks, type RunnableSet } from './runnable-checks.ts';
import { createScheduler, type Scheduler } from './schedule/scheduler.ts';
import { createServiceCalls, type Identity } from './service-calls.ts';
import { initialState, type AgentState } from './state.ts';
import { listChecks } from './store/checks.ts';
import { openDatabase, type Database } from './store/database.ts';
import { allHistory, createHistory, type History } from './store/history.ts';
import { createCheckStats } from './check-stats.ts';
import { createTransitionTracker, type CheckTransition } from './transitions.ts';
import { redactPrivate } from './results/private-redaction.ts';
import { openPrivateDefinitions, type PrivateDefinitionsSource, type PrivateDefinitionsState } from './private-definitions/index.ts';
import type { PrivateDefinitionsSummary } from './status-report.ts';
import { buildSnapshot, type AgentSnapshot } from './snapshot.ts';
import { deleteMeta, getMeta, setMeta } from './store/meta.ts';
import { clearChecks } from './store/checks.ts';
import { createOutbox, type Outbox } from './store/outbox.ts';
import { syncOnce, type SyncOutcome } from './sync.ts';
import { agentVersion, userAgent } from './version.ts';
import { createApiClient } from './wire/api-client.ts';
import type { ApiError } from './wire/api-error.ts';
import type { CheckDefinition } from './wire/schemas.ts';

export interface AgentOptions {
  dataDir: string;
  vault: KeyVault;
  log?: Logger;
  clock?: Clock;
  tunables?: Partial<AgentTunables>;
  /** Extra probe context, e.g. a test CA the probes should trust. */
  probeContext?: Omit<ProbeContext, 'signal' | 'sampleChars'>;
  /** The private definitions file to load and watch. */
  privateChecksFile?: string;
}

export type NotEnrolled = { ok: false; error: ApiError };

export interface Agent {
  readonly db: Database;
  readonly outbox: Outbox;
  readonly history: History;
  /** Starts the loops when enrolled; an agent that is not enrolled waits for enroll(). */
  start(): Promise<void>;
  /** Stops scheduling, lets runs in flight finish, tries a last upload, closes the store. */
  stop(): Promise<void>;
  enroll(input: EnrollInput): Promise<EnrollOutcome>;
  syncNow(): Promise<SyncOutcome | NotEnrolled>;
  /** Drains the outbox now, whatever the backoff says (a user asked). */
  uploadNow(): Promise<UploadOutcome | NotEnrolled>;
  isEnrolled(): boolean;
  identity(): { monitorId: string; server: string } | undefined;
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
  snapshot(): AgentSnapshot;
  schedulerStats(): ReturnType<Scheduler['stats']> | undefined;
  state(): AgentState;
  /** Calls listener after every state change; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** Calls listener when a check goes down or recovers (for notifications and the UI). */
  onTransition(listener: (transition: CheckTransition) => void): () => void;
}

export function createAgent(options: AgentOptions): Agent {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const tunables: AgentTunables = { ...agentDefaults, ...options.tunables };
  const now = (): Date => new Date(clock.now());
  const db = openDatabase(storeFile(options.dataDir));
  const outbox = createOutbox(db, { maxCount: tunables.outboxMaxCount, maxBytes: tunables.outboxMaxBytes });
  const history = createHistory(db, tunables.historySlots);
  const outages = createOutageTracker(db, now());
  const stats = createCheckStats(tunables.historySlots, 30);
  for (const entry of allHistory(db)) stats.record(entry);
  let privateSource: PrivateDefinitionsSource | undefined;
  const listeners = new Set<() => void>();
  const transitionListeners = new Set<(transition: CheckTransition) => void>();
  const transitions = createTransitionTracker();
  let state = initialState(now(), outbox.dropped());
  let identity: Identity | undefined;
  let loops: { sync: Loop; upload: Loop; status: Loop; ping: Loop; connectivity: Loop } | undefined;
  let scheduler: Scheduler | undefined;
  let privateDefs: ReadonlyMap<string, CheckDefinition> = new Map();
  let runnable: RunnableSet = runnableChecks([], privateDefs);
  let scheduled = new Set<string>();

  const update = (change: (s: AgentState) => AgentState): void => {
    state = change(state);
    for (const listener of listeners) listener();
  };

  const extraTargets: Endpoint[] = tunables.connectivityTargets.flatMap((t) => parseEndpoint(t) ?? []);
  const connectivity = createConnectivity({
    targets: () => (identity === undefined ? extraTargets : [endpointOf(identity.server), ...extraTargets]),
    timeoutMs: tunables.connectivityTimeoutMs,
    cacheMs: tunables.connectivityCacheMs,
    monotonic: () => clock.monotonic(),
  });

  function wentOffline(): void {
    const at = now();
    if (!outages.wentOffline(at)) return;
    log.warn('no connectivity target is reachable: offline; failed check runs are kept as skipped until connectivity returns');
    update((s) => ({ ...s, online: false, offlineSince: at.toISOString() }));
    loops?.connectivity.trigger();
  }

  function cameOnline(): void {
    const outage = outages.cameOnline(now());
    if (outage === undefined) return;
    log.info({ durationSec: outage.durationSec }, 'connectivity is back; the outage is over');
    const { offlineSince: _gone, ...rest } = state;
    update(() => ({ ...rest, online: true }));
    calls.resetBackoff();
    loops?.upload.trigger();
    loops?.status.trigger();
  }

  /** Probing stops while the user paused it or the server disabled this monitor. */
  function applyPause(): void {
    if (state.paused || state.auth === 'monitor-disabled') scheduler?.pause();
    else scheduler?.resume();
  }

  const calls = createServiceCalls({
    clock,
    log,
    tunables,
    identity: () => identity,
    state: () => state,
    update,
    onReachable: () => {
      connectivity.invalidate();
      cameOnline();
    },
    onUnreachable: () => {
      void connectivity.probe().then((online) => (online ? undefined : wentOffline()));
    },
    onAuthChanged: (before) => {
      applyPause();
      if (before !== 'ok' && state.auth === 'ok') {
        log.info('the server accepts this monitor again; resuming');
        calls.resetBackoff();
        loops?.sync.trigger();
        loops?.upload.trigger();
      }
    },
  });

  const sink = createResultSink({
    db,
    outbox,
    history,
    clock,
    maxBatch: 500,
    onCommitted: ({ dropped, history: entries }) => {
      for (const entry of entries) stats.record(entry);
      if (dropped > 0) {
        log.warn({ dropped }, 'the outbox is full; the oldest results were dropped');
        update((s) => ({ ...s, droppedResults: outbox.dropped() }));
      }
      // A full wire batch is waiting: send it now rather than at the next interval.
      if (outbox.count() >= 500) loops?.upload.trigger();
      update((s) => s);
    },
    onError: (error) => log.error({ err: error }, 'could not commit results; retrying'),
  });

  /** Recomputes what runs from the store and the private definitions, and tells the scheduler. */
  function refreshRunnable(): void {
    runnable = runnableChecks(listChecks(db), privateDefs);
    if (scheduler === undefined) return;
    for (const check of runnable.runnable.values()) scheduler.upsert({ guid: check.guid, intervalMs: check.intervalMs });
    for (const guid of scheduled) if (!runnable.runnable.has(guid)) scheduler.remove(guid);
    scheduled = new Set(runnable.runnable.keys());
  }

  /** A failure with nothing back may be this machine's network, not the target: ask first. */
  async function offlineAfter(outcome: ProbeOutcome): Promise<boolean> {
    if (outages.offline) return true;
    if (outcome.latencyMs > 0 || outcome.invalidDefinition === true) return false;
    if (await connectivity.probe()) return false;
    wentOffline();
    return true;
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
        monitorId: () => identity?.monitorId ?? '',
        offlineAfter,
        onSkippedOffline: () => update((s) => ({ ...s, skippedOffline: s.skippedOffline + 1 })),
        onOutcome: (check, outcome, skipped, ranAt) => {
          const transition = transitions.observe(check.guid, check.name, outcome, skipped, ranAt);
          if (transition === undefined) return;
          // The UI and notifications show it: a private check's target stays masked there too.
          const shown = check.privateSecrets === undefined || transition.error === undefined
            ? transition
            : { ...transition, error: redactPrivate(transition.error, check.privateSecrets) };
          for (const listener of transitionListeners) listener(shown);
        },
        ...(options.probeContext === undefined ? {} : { probeContext: options.probeContext }),
      }),
    });
    scheduled = new Set();
    applyPause();
    refreshRunnable();
  }

  // One sync at a time: "sync now" during a loop round waits for it, then runs its own.
  let syncChain: Promise<unknown> = Promise.resolve();
  function runSync(signal?: AbortSignal): Promise<SyncOutcome | NotEnrolled> {
    const next = syncChain.then(() => syncRound(signal));
    syncChain = next.catch(() => undefined);
    return next;
  }

  async function syncRound(signal?: AbortSignal): Promise<SyncOutcome | NotEnrolled> {
    const outcome = await calls.call('sync', signal, (client, apiKey, s) =>
      syncOnce({ db, client, apiKey, log, ...(s === undefined ? {} : { signal: s }) }),
    );
    if (outcome.ok && outcome.summary.received > 0) {
      log.info({ ...outcome.summary }, 'checks synced');
      // Re-applied so that missing/unknown private entries follow the new check set.
      applyPrivateDefinitions(privateSource?.current());
    }
    return outcome;
  }

  async function runUpload(signal?: AbortSignal): Promise<UploadOutcome | NotEnrolled> {
    const total = outbox.count();
    if (total === 0) return { ok: true, report: { delivered: 0, accepted: 0, rejected: 0, calls: 0 } };
    update((s) => ({ ...s, uploading: { delivered: 0, total } }));
    const outcome = await calls.call('upload', signal, (client, apiKey, s) =>
      drainOutbox({
        outbox,
        client,
        apiKey,
        now,
        ...(s === undefined ? {} : { signal: s }),
        onProgress: (report) => update((st) => ({ ...st, uploading: { delivered: report.delivered, total } })),
      }),
    );
    const { uploading: _done, ...rest } = state;
    update(() => rest);
    if ('report' in outcome && outcome.report.rejected > 0) {
      log.warn({ rejected: outcome.report.rejected }, 'the server refused some results; they are set aside in the rejected list');
    }
    return outcome;
  }

  function startLoops(): void {
    const loop = (name: string, run: (signal: AbortSignal) => Promise<number>, initialDelayMs = 0): Loop =>
      startLoop({
        clock,
        initialDelayMs,
        run,
        onError: (error) => log.error({ err: error }, `${name} loop failed unexpectedly`),
        fallbackDelayMs: 60_000,
      });
    loops = {
      sync: loop('sync', calls.paced('sync', tunables.syncIntervalMs, runSync)),
      upload: loop('upload', calls.paced('upload', tunables.uploadIntervalMs, runUpload), tunables.uploadIntervalMs),
      status: loop('status', calls.paced('status', tunables.statusIntervalMs, (signal) =>
        calls.call('status', signal, (client, apiKey, s) =>
          client.status(apiKey, statusBody({
            version: agentVersion,
            startedAtMs: Date.parse(state.startedAt),
            nowMs: clock.now(),
            unsent: outbox.count(),
            lastOutage: outages.lastCompleted,
          }), s),
        ),
      )),
      ping: loop('ping', calls.paced('ping', tunables.pingIntervalMs, (signal) =>
        calls.call('ping', signal, (client, apiKey, s) => client.ping(apiKey, s)),
      )),
      connectivity: loop('connectivity', async () => {
        if (!outages.offline) return 3_600_000; // idle until wentOffline() triggers it
        connectivity.invalidate();
        if (await connectivity.probe()) cameOnline();
        return tunables.offlineProbeMs;
      }),
    };
  }

  async function stopLoops(): Promise<void> {
    const running = loops;
    loops = undefined;
    const stoppingScheduler = scheduler;
    scheduler = undefined;
    await Promise.all([
      ...Object.values(running ?? {}).map((l) => l.stop()),
      stoppingScheduler?.stop(tunables.stopGraceMs),
    ]);
    sink.flush();
  }

  async function loadIdentity(): Promise<boolean> {
    const enrollment = readEnrollment(db);
    const apiKey = await options.vault.load();
    await identity?.client.close();
    identity = undefined;
    if (enrollment === undefined || apiKey === undefined) return false;
    identity = {
      apiKey,
      monitorId: enrollment.monitorId,
      server: enrollment.server,
      client: createApiClient({ baseUrl: enrollment.server, userAgent }),
    };
    return true;
  }

  let stopping: Promise<void> | undefined;
  async function stopAgent(): Promise<void> {
    await stopLoops();
    if (identity !== undefined && state.auth === 'ok' && !outages.offline && outbox.count() > 0) {
      log.info({ unsent: outbox.count() }, 'last upload before stopping');
      await runUpload(AbortSignal.timeout(tunables.finalUploadMs));
    }
    await identity?.client.close();
    identity = undefined;
    privateSource?.close();
    db.close();
  }

  function applyPrivateDefinitions(current: PrivateDefinitionsState | undefined): void {
    privateDefs = current?.entries ?? new Map();
    refreshRunnable();
    // What `status --json` (another process) shows: guids and problems, never a definition.
    const summary: PrivateDefinitionsSummary = {
      file: current?.file ?? null,
      error: current?.fileError ?? null,
      defined: [...privateDefs.keys()],
      missing: runnable.missingPrivate,
      unknown: runnable.unknownPrivate,
      problems: (current?.problems ?? []).map((p) => ({ guid: p.guid ?? null, field: p.field ?? null, severity: p.severity, message: p.message })),
    };
    setMeta(db, 'private_definitions', JSON.stringify(summary));
    update((s) => ({ ...s }));
  }

  async function usePrivateFile(file: string | undefined): Promise<void> {
    privateSource?.close();
    privateSource = undefined;
    if (file === undefined) {
      applyPrivateDefinitions(undefined);
      return;
    }
    privateSource = await openPrivateDefinitions({ file, log, onChange: (s) => applyPrivateDefinitions(s) });
    applyPrivateDefinitions(privateSource.current());
  }

  function startAll(): void {
    startScheduler();
    startLoops();
  }

  return {
    db,
    outbox,
    history,
    async start() {
      if (options.privateChecksFile !== undefined) await usePrivateFile(options.privateChecksFile);
      else refreshRunnable();
      if (await loadIdentity()) startAll();
    },
    stop() {
      // Idempotent: the shell and the CLI may both ask; a second call waits for the first.
      stopping ??= stopAgent();
      return stopping;
    },
    async enroll(input) {
      await stopLoops();
      const outcome = await enrollWith(input, {
        db,
        vault: options.vault,
        client: (server) => createApiClient({ baseUrl: server, userAgent }),
        now,
      });
      if (outcome.ok) log.info({ monitorId: outcome.monitorId, server: outcome.server }, 'enrolled');
      if (await loadIdentity()) {
        update((s) => ({ ...initialState(now(), outbox.dropped()), paused: s.paused, startedAt: s.startedAt }));
        startAll();
      }
      return outcome;
    },
    syncNow: () => runSync(),
    uploadNow: () => runUpload(),
    isEnrolled: () => identity !== undefined,
    identity: () => (identity === undefined ? undefined : { monitorId: identity.monitorId, server: identity.server }),
    pause() {
      update((s) => ({ ...s, paused: true }));
      applyPause();
    },
    resume() {
      update((s) => ({ ...s, paused: false }));
      applyPause();
    },
    runnable: () => runnable,
    setPrivateChecksFile: (file) => usePrivateFile(file),
    async reloadPrivateChecks() {
      await privateSource?.reload();
    },
    privateDefinition: (guid) => privateDefs.get(guid),
    async forget() {
      await stopLoops();
      await options.vault.clear();
      await identity?.client.close();
      identity = undefined;
      for (const key of ['monitor_id', 'server_url', 'enrollment', 'sync_cursor', 'last_sync_at'] as const) deleteMeta(db, key);
      clearChecks(db);
      refreshRunnable();
      log.info('this agent forgot its monitor; enroll it again to resume');
      update((s) => ({ ...initialState(now(), outbox.dropped()), paused: s.paused, startedAt: s.startedAt }));
    },
    snapshot: () => {
      const enrollment = readEnrollment(db);
      const cursor = getMeta(db, 'sync_cursor');
      const schedulerStats = scheduler?.stats();
      return buildSnapshot({
        version: agentVersion,
        now: now(),
        state,
        ...(identity === undefined ? {} : {
          identity: { monitorId: identity.monitorId, server: identity.server, ...(enrollment?.details === undefined ? {} : { details: enrollment.details }) },
        }),
        keyProtection: options.vault.protection,
        ...(cursor === undefined ? {} : { cursor }),
        checks: listChecks(db),
        runnable,
        figures: (guid) => stats.figures(guid),
        outbox: {
          unsent: outbox.count(),
          bytes: outbox.bytes(),
          ...(outbox.count() === 0 ? {} : { oldestRanAt: outbox.oldestRanAt() ?? '' }),
          dropped: outbox.dropped(),
          rejectedCount: outbox.rejectedCount(),
          rejected: outbox.rejected(50),
        },
        unsentPerCheck: outbox.perCheck(),
        ...(privateSource === undefined ? {} : { privateState: privateSource.current() }),
        ...(schedulerStats === undefined ? {} : { scheduler: schedulerStats }),
      });
    },
    schedulerStats: () => scheduler?.stats(),
    state: () => state,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onTransition(listener) {
      transitionListeners.add(listener);
      return () => transitionListeners.delete(listener);
    },
  };
}
