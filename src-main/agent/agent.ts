// Composition root: wires the store, the identity, the check set, probing, the upload loop, the
// heartbeat and the offline policy into one agent that the headless command and the Electron
// main process both host. Policy lives in those modules; this file only connects them.
import { openAgentStore, type AgentStore } from './agent-store.ts';
import { createCheckInsight, type CheckInsight } from './check-insight.ts';
import { createCheckSet } from './check-set.ts';
import type { ExtraProbeContext } from './check-runner.ts';
import { systemClock, type Clock } from './clock.ts';
import { agentDefaults, type AgentTunables } from './defaults.ts';
import type { UploadOutcome } from './delivery/uploader.ts';
import type { EnrollInput, EnrollOutcome } from './enrollment.ts';
import { parseEndpoint, type Endpoint } from './health/connectivity.ts';
import { createOfflinePolicy } from './health/offline-policy.ts';
import { createHeartbeat } from './heartbeat.ts';
import { createIdentityHolder, type CallFailure, type IdentityView } from './identity.ts';
import type { KeyVault } from './key-vault.ts';
import { silentLogger, type Logger } from './log.ts';
import { startLoop, type Loop } from './loop.ts';
import { clearLoad, saveLoad, sameLoad } from './load-state.ts';
import { createProbing } from './probing.ts';
import { createReadModel, type ReadModel } from './read-model.ts';
import { createResultSink, describeStoreProblem } from './results/result-sink.ts';
import { watchIdentityFile, type IdentityWatch } from './identity-watch.ts';
import { openRunStateWriter } from './run-state-file.ts';
import { describeOverload } from './schedule/load.ts';
import type { RunnableSet } from './runnable-checks.ts';
import { createServiceCalls } from './service-calls.ts';
import { createLiveState, initialState, type AgentState } from './state.ts';
import type { SyncOutcome } from './sync.ts';
import type { CheckTransition } from './transitions.ts';
import { createUploadLoop } from './upload-loop.ts';
import { setMeta } from './store/meta.ts';
import { userAgent } from './version.ts';
import { isSendableCredential } from './wire/api-client.ts';
import { probeNetwork, serverClient, serverRoute, type NetworkSettings, type ProbeNetwork } from './wire/network.ts';
import { serverReachTarget } from './wire/proxy.ts';
import { wireLimits, type CheckDefinition } from './wire/schemas.ts';

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

export type { CallFailure } from './identity.ts';

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

export function createAgent(options: AgentOptions): Agent {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const tunables: AgentTunables = { ...agentDefaults, ...options.tunables };
  const now = (): Date => new Date(clock.now());
  const store = options.store ?? openAgentStore(options.dataDir, tunables, log, now());
  const { db, outbox, history, stats } = store;
  const live = createLiveState(initialState(now(), outbox.dropped()));
  const env = options.env ?? process.env;
  let network: NetworkSettings = options.network ?? {};
  let probeNet: ProbeNetwork = applyProbeNetwork();
  const identity = createIdentityHolder({ db, outbox, vault: options.vault, dataDir: options.dataDir, log, now, client: (server) => serverClient(server, network, env, userAgent, () => clock.now()) });

  /** The checks' side of the network settings; problems (an unreadable CA file) are logged. */
  function applyProbeNetwork(): ProbeNetwork {
    const resolved = probeNetwork(network, env);
    for (const problem of resolved.problems) log.warn(problem);
    return resolved.value;
  }

  /** With a proxy for the server, "online" means the proxy answers: the traffic only goes there. */
  function serverTarget(server: string): Endpoint {
    const route = serverRoute(server, network, env);
    return serverReachTarget(server, route.ok ? route.value.proxy?.url : undefined);
  }

  /** A key that cannot be sent is said at once, before any loop tries it (issue 11 §4). */
  function checkKey(): void {
    const key = identity.current()?.apiKey;
    if (key === undefined || isSendableCredential(key)) return;
    log.error('the stored API key is damaged and cannot be sent: enroll this agent again, or reclaim its monitor id.');
    live.update((s) => ({ ...s, auth: 'key-damaged' }));
  }
  const runState = openRunStateWriter(options.dataDir);
  let loops: Record<'sync' | 'upload' | 'status' | 'ping' | 'connectivity', Loop> | undefined;

  const extraTargets: Endpoint[] = tunables.connectivityTargets.flatMap((t) => parseEndpoint(t) ?? []);
  const policy = createOfflinePolicy({
    db, clock, log, live,
    targets: () => {
      const server = identity.current()?.server;
      return server === undefined ? extraTargets : [serverTarget(server), ...extraTargets];
    },
    timeoutMs: tunables.connectivityTimeoutMs,
    offlineProbeMs: tunables.offlineProbeMs,
    inWakeGrace: () => probing.inWakeGrace(),
    onOffline: () => loops?.connectivity.trigger(),
    onOnline: () => {
      calls.resetBackoff();
      loops?.upload.trigger();
      loops?.status.trigger();
    },
  });

  const calls = createServiceCalls({
    clock,
    log,
    tunables,
    identity: () => identity.current(),
    state: live.get,
    update: live.update,
    onReachable: () => policy.serverAnswered(),
    onUnreachable: () => void policy.serverUnreachable(),
    onAuthChanged: (before) => {
      probing.applyPause();
      if (before !== 'ok' && live.get().auth === 'ok') {
        log.info('the server accepts this monitor again; resuming');
        calls.resetBackoff();
        loops?.sync.trigger();
        loops?.upload.trigger();
      }
      // Rejected: the ping loop rechecks on its own spread delay (service-calls.ts).
      if (live.get().auth !== 'ok') loops?.ping.trigger();
    },
    // Kept in the store for `status --json`, which runs in another process.
    onClockSkew: (skewSec) => setMeta(db, 'clock_skew_sec', String(skewSec)),
  });

  const insight = createCheckInsight({ db, history, clock, live, checkSet: { runnable: () => checkSet.runnable() }, probeContext: () => ({ ...probeNet, ...options.probeContext }) });
  const uploads = createUploadLoop({ outbox, calls, live, log, now });
  const heartbeat = createHeartbeat({ calls, clock, unsent: () => outbox.count(), lastOutage: () => policy.lastOutage });

  const sink = createResultSink({
    db,
    outbox,
    history: insight.history,
    clock,
    maxBatch: wireLimits.resultsPerBatch,
    onCommitted: ({ dropped, history: entries }) => {
      for (const entry of entries) stats.record(entry);
      if (dropped > 0) {
        log.warn({ dropped }, 'the outbox is full; the oldest results were dropped');
        live.update((s) => ({ ...s, droppedResults: outbox.dropped() }));
      }
      if (uploads.batchWaiting()) loops?.upload.trigger();
      live.update((s) => s);
    },
    onProblem: (problem, error) => {
      const message = describeStoreProblem(problem, options.dataDir);
      // Once per problem in the log (the retry runs every second); the state follows the counts.
      if (live.get().storeProblem === undefined) log.error({ detail: problem.detail, code: (error as { errcode?: number }).errcode }, message);
      runState.write({ store_problem: message, unsaved_results: problem.waiting });
      live.update((s) => ({ ...s, storeProblem: message }));
    },
    onRecovered: (problem) => {
      log.info({ dropped: problem.dropped }, 'results are saved again');
      runState.write({ store_problem: null, unsaved_results: 0 });
      live.update(({ storeProblem: _gone, ...rest }) => ({ ...rest, droppedResults: outbox.dropped() }));
      loops?.upload.trigger();
    },
  });

  const checkSet = createCheckSet({
    db,
    log,
    calls,
    onChanged: () => live.update((s) => s),
    onGone: (guid, stored) => {
      probing.forget(guid);
      if (stored) return;
      stats.forget(guid);
      history.forget(guid);
      insight.forget(guid);
    },
  });

  const probing = createProbing({
    clock, log, tunables, checkSet, sink,
    monitorId: () => identity.current()?.monitorId ?? '',
    state: live.get,
    skipsRun: (outcome) => policy.skipsRun(outcome),
    transitions: insight.transitions,
    probeContext: () => ({ ...probeNet, ...options.probeContext }),
    onTransition: insight.announce,
    onLoad: (report) => {
      // Stored at every sample: status --json takes an old figure for a stopped agent.
      saveLoad(db, report, clock.now());
      const before = live.get().load;
      if (sameLoad(before, report)) return;
      if (report.overloaded && before?.overloaded !== true) log.warn({ skipped: report.recentSkipped }, describeOverload(report));
      live.update((s) => ({ ...s, load: report }));
    },
  });

  const view = createReadModel({
    store,
    live,
    identity,
    checkSet,
    schedulerStats: () => probing.stats(),
    keyProtection: options.vault.protection,
    now,
    downSince: (guid) => insight.transitions.downSince(guid),
    egressPolicy: () => probeNet.egressPolicy,
  });

  function startAll(): void {
    probing.start();
    const loop = (name: string, run: (signal: AbortSignal) => Promise<number>, initialDelayMs = 0): Loop =>
      startLoop({ clock, initialDelayMs, run, onError: (error) => log.error({ err: error }, `${name} loop failed unexpectedly`), fallbackDelayMs: 60_000 });
    loops = {
      sync: loop('sync', calls.paced('sync', tunables.syncIntervalMs, (signal) => checkSet.sync(signal))),
      upload: loop('upload', calls.paced('upload', tunables.uploadIntervalMs, (signal) => uploads.upload(signal)), tunables.uploadIntervalMs),
      status: loop('status', calls.paced('status', tunables.statusIntervalMs, heartbeat.status)),
      ping: loop('ping', calls.paced('ping', tunables.pingIntervalMs, heartbeat.ping)),
      connectivity: loop('connectivity', () => policy.watch()),
    };
  }

  async function stopAll(): Promise<void> {
    const running = loops;
    loops = undefined;
    await Promise.all([...Object.values(running ?? {}).map((l) => l.stop()), probing.stop()]);
    sink.flush();
    clearLoad(db);
    if (live.get().load !== undefined) live.update(({ load: _gone, ...rest }) => rest);
  }

  /** After enroll or forget: a fresh live state that keeps only what the user chose (and a store problem). */
  function resetState(): void {
    live.update((s) => ({
      ...initialState(now(), outbox.dropped()),
      paused: s.paused,
      startedAt: s.startedAt,
      ...(s.storeProblem === undefined ? {} : { storeProblem: s.storeProblem }),
    }));
  }

  /** `uptime-agent enroll` (a new monitor or a reclaim) wrote the key file: follow it. */
  async function followKeyFile(): Promise<void> {
    if (!(await identity.changed())) return;
    await stopAll();
    const enrolled = await identity.load();
    const view = identity.view();
    if (view === undefined) log.info('the key file was removed: not enrolled any more');
    else log.info({ monitorId: view.monitorId, server: view.server }, 'the key file changed: now working as this monitor');
    resetState();
    if (enrolled) {
      checkKey();
      startAll();
    }
  }
  let keyFileWatch: IdentityWatch | undefined;

  async function stopAgent(): Promise<void> {
    keyFileWatch?.close();
    await stopAll();
    if (identity.current() !== undefined && live.get().auth === 'ok' && !policy.offline && outbox.count() > 0) {
      log.info({ unsent: outbox.count() }, 'last upload before stopping');
      await uploads.upload(AbortSignal.timeout(tunables.finalUploadMs));
    }
    await identity.close();
    checkSet.close();
    const lost = sink.close();
    if (lost.unsaved + lost.dropped > 0) {
      log.error({ unsaved: lost.unsaved, dropped: lost.dropped }, `${lost.unsaved + lost.dropped} results could not be saved before stopping (${live.get().storeProblem ?? 'the store did not take them'})`);
    }
    runState.close();
    store.close();
  }

  let stopping: Promise<void> | undefined;
  return {
    async start() {
      if (options.privateChecksFile !== undefined) await checkSet.useFile(options.privateChecksFile);
      else checkSet.refresh();
      if (await identity.load()) {
        checkKey();
        startAll();
      }
      const file = options.vault.file;
      if (file !== undefined) {
        keyFileWatch = watchIdentityFile(file, () => void followKeyFile().catch((error: unknown) => log.error({ err: error }, 'could not follow the changed key file')), {
          clock,
          settleMs: tunables.keyFileSettleMs,
          pollMs: tunables.keyFilePollMs,
        });
      }
    },
    stop() {
      // Idempotent: the shell and the CLI may both ask; a second call waits for the first.
      stopping ??= stopAgent();
      return stopping;
    },
    async enroll(input) {
      await stopAll();
      const outcome = await identity.enroll(input);
      if (outcome.ok) log.info({ monitorId: outcome.monitorId, server: outcome.server }, 'enrolled');
      if (await identity.load()) {
        resetState();
        checkKey();
        startAll();
      }
      return outcome;
    },
    syncNow: () => checkSet.sync(),
    uploadNow: () => uploads.upload(),
    isEnrolled: () => identity.current() !== undefined,
    identity: () => identity.view(),
    pause() {
      live.update((s) => ({ ...s, paused: true }));
      probing.applyPause();
    },
    resume() {
      live.update((s) => ({ ...s, paused: false }));
      probing.applyPause();
    },
    runnable: () => checkSet.runnable(),
    setPrivateChecksFile: (file) => checkSet.useFile(file),
    reloadPrivateChecks: () => checkSet.reload(),
    privateDefinition: (guid) => checkSet.privateDefinition(guid),
    async forget() {
      await stopAll();
      await identity.forget();
      checkSet.refresh();
      log.info('this agent forgot its monitor; enroll it again to resume');
      resetState();
    },
    async setNetwork(settings) {
      network = settings;
      probeNet = applyProbeNetwork();
      await identity.reconnect();
      // The problem the old settings caused is re-judged by the next call.
      live.update((s) => {
        const { connectionProblem: _old, ...rest } = s;
        return rest;
      });
      calls.resetBackoff();
      loops?.sync.trigger();
    },
    snapshot: view.snapshot,
    checkHistory: view.checkHistory,
    outages: view.outages,
    insight,
    state: live.get,
    onChange: live.onChange,
    onTransition: insight.onTransition,
    clockJumped: () => probing.clockJumped({ kind: 'resume' }),
  };
}
