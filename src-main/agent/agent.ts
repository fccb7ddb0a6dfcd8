// Composition root: wires the store, the identity, the check set, probing, the upload loop, the
// heartbeat and the offline policy into one agent that the headless command and the Electron
// main process both host. Policy lives in those modules; this file only connects them.
import type { Agent, AgentOptions } from './agent-api.ts';
import { openAgentStore } from './store/agent-store.ts';
import { createCheckInsight } from './read/check-insight.ts';
import { createCheckSet } from './checks/check-set.ts';
import { systemClock } from './base/clock.ts';
import { agentDefaults, type AgentTunables } from './defaults.ts';
import { parseEndpoint, type Endpoint } from './health/connectivity.ts';
import { createOfflinePolicy } from './health/offline-policy.ts';
import { createHeartbeat } from './delivery/heartbeat.ts';
import { createIdentityHolder } from './identity/identity.ts';
import { silentLogger } from './base/log.ts';
import { startLoop, type Loop } from './base/loop.ts';
import { createLoadReporter } from './live/load-state.ts';
import { createProbing } from './runs/probing.ts';
import { createReadModel } from './read/read-model.ts';
import { createRecording } from './results/recording.ts';
import { watchIdentityFile, type IdentityWatch } from './identity/identity-watch.ts';
import { openRunStateWriter } from './live/run-state-file.ts';
import { createServiceCalls } from './delivery/service-calls.ts';
import { createLiveState, initialState } from './live/state.ts';
import { createUploadLoop } from './delivery/upload-loop.ts';
import { setMeta } from './store/meta.ts';
import { userAgent } from './base/version.ts';
import { isSendableCredential } from './wire/api-client.ts';
import { probeNetwork, serverClient, serverRoute, type NetworkSettings, type ProbeNetwork } from './wire/network.ts';
import { serverReachTarget } from './wire/proxy.ts';

export type { Agent, AgentOptions, CallFailure } from './agent-api.ts';

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
  const identity = createIdentityHolder({
    db,
    outbox,
    vault: options.vault,
    dataDir: options.dataDir,
    log,
    now,
    client: (server) => serverClient(server, network, env, userAgent, () => clock.now()),
  });

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
  const loadReporter = createLoadReporter({ db, clock, log, live });
  let loops: Record<'sync' | 'upload' | 'status' | 'ping' | 'connectivity', Loop> | undefined;

  const extraTargets: Endpoint[] = tunables.connectivityTargets.flatMap((t) => parseEndpoint(t) ?? []);
  const policy = createOfflinePolicy({
    db,
    clock,
    log,
    live,
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

  const insight = createCheckInsight({
    db,
    history,
    clock,
    live,
    log,
    checkSet: { runnable: () => checkSet.runnable() },
    probeContext: () => ({ ...probeNet, ...options.probeContext }),
  });
  const uploads = createUploadLoop({ outbox, calls, live, log, now });
  const heartbeat = createHeartbeat({
    calls,
    clock,
    unsent: () => outbox.count(),
    lastOutage: () => policy.lastOutage,
  });

  const sink = createRecording({
    db,
    outbox,
    stats,
    clock,
    log,
    live,
    runState,
    history: insight.history,
    dataDir: options.dataDir,
    onBatchWaiting: () => {
      if (uploads.batchWaiting()) loops?.upload.trigger();
    },
    onRecovered: () => loops?.upload.trigger(),
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
    clock,
    log,
    tunables,
    checkSet,
    sink,
    monitorId: () => identity.current()?.monitorId ?? '',
    state: live.get,
    skipsRun: (outcome) => policy.skipsRun(outcome),
    transitions: insight.transitions,
    probeContext: () => ({ ...probeNet, ...options.probeContext }),
    onTransition: insight.announce,
    onLoad: (report) => loadReporter.report(report),
  });

  const view = createReadModel({
    store,
    live,
    identity,
    checkSet,
    keyProtection: options.vault.protection,
    now,
    schedulerStats: () => probing.stats(),
    downSince: (guid) => insight.transitions.downSince(guid),
    egressPolicy: () => probeNet.egressPolicy,
  });

  function startAll(): void {
    probing.start();
    const loop = (name: string, run: (signal: AbortSignal) => Promise<number>, initialDelayMs = 0): Loop =>
      startLoop({
        clock,
        initialDelayMs,
        run,
        onError: (error) => log.error({ err: error }, `${name} loop failed unexpectedly`),
        fallbackDelayMs: 60_000,
      });
    loops = {
      sync: loop(
        'sync',
        calls.paced('sync', tunables.syncIntervalMs, (signal) => checkSet.sync(signal)),
      ),
      upload: loop(
        'upload',
        calls.paced('upload', tunables.uploadIntervalMs, (signal) => uploads.upload(signal)),
        tunables.uploadIntervalMs,
      ),
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
    loadReporter.clear();
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
    else
      log.info({ monitorId: view.monitorId, server: view.server }, 'the key file changed: now working as this monitor');
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
      log.error(
        { unsaved: lost.unsaved, dropped: lost.dropped },
        `${lost.unsaved + lost.dropped} results could not be saved before stopping (${live.get().storeProblem ?? 'the store did not take them'})`,
      );
    }
    insight.close();
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
        keyFileWatch = watchIdentityFile(
          file,
          () =>
            void followKeyFile().catch((error: unknown) =>
              log.error({ err: error }, 'could not follow the changed key file'),
            ),
          {
            clock,
            settleMs: tunables.keyFileSettleMs,
            pollMs: tunables.keyFilePollMs,
          },
        );
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
