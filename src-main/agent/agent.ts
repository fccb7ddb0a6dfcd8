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
import { createServerAbsences } from './health/server-absences.ts';
import { createHeartbeat } from './delivery/heartbeat.ts';
import { createIdentityHolder } from './identity/identity.ts';
import { silentLogger } from './base/log.ts';
import { startServiceLoops, type ServiceLoops } from './delivery/service-loops.ts';
import { createLoadReporter } from './live/load-state.ts';
import { createProbing } from './runs/probing.ts';
import { createReadModel } from './read/read-model.ts';
import { createRecording } from './results/recording.ts';
import { createIdentityLifecycle } from './identity/lifecycle.ts';
import { finalUpload } from './delivery/final-upload.ts';
import { startLivePublisher } from './live/publisher.ts';
import { createServiceCalls } from './delivery/service-calls.ts';
import { createLiveState, initialState } from './live/state.ts';
import { createUploadLoop } from './delivery/upload-loop.ts';
import { userAgent } from './base/version.ts';
import { createNetworkHolder } from './wire/network-holder.ts';
import { applyRuntimeV8Flags } from './base/runtime-v8-flags.ts';

export type { Agent, AgentOptions, CallFailure } from './agent-api.ts';

export function createAgent(options: AgentOptions): Agent {
  // Before the first run: V8's GC policy for the process that hosts the agent (the command or the desktop app).
  applyRuntimeV8Flags();
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const tunables: AgentTunables = { ...agentDefaults, ...options.tunables };
  const now = (): Date => new Date(clock.now());
  const store = options.store ?? openAgentStore(options.dataDir, tunables, log, now());
  const { db, outbox, history, stats } = store;
  const live = createLiveState(initialState(now(), outbox.dropped()));
  const env = options.env ?? process.env;
  const network = createNetworkHolder(options.network ?? {}, env, log);
  const identity = createIdentityHolder({
    db,
    outbox,
    vault: options.vault,
    dataDir: options.dataDir,
    log,
    now,
    client: (server) => network.client(server, userAgent, () => clock.now()),
  });

  const loadReporter = createLoadReporter({ clock, log, live });
  let loops: ServiceLoops | undefined;

  const extraTargets: Endpoint[] = tunables.connectivityTargets.flatMap((t) => parseEndpoint(t) ?? []);
  const policy = createOfflinePolicy({
    db,
    clock,
    log,
    live,
    targets: () => {
      const server = identity.current()?.server;
      return server === undefined ? extraTargets : [network.serverTarget(server), ...extraTargets];
    },
    timeoutMs: tunables.connectivityTimeoutMs,
    offlineProbeMs: tunables.offlineProbeMs,
    inWakeGrace: () => probing.inWakeGrace(),
    onOffline: () => loops?.connectivity.trigger(),
    onOnline: () => {
      calls.resumeStaggered();
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
  });

  const insight = createCheckInsight({
    db,
    history,
    clock,
    live,
    log,
    checkSet: { runnable: () => checkSet.runnable() },
    probeContext: () => ({ ...network.probe(), ...options.probeContext }),
  });
  // Before any call: the first outcome already moves the connection state it follows.
  const absences = createServerAbsences({ db, live, waiting: () => outbox.count(), now, log });
  const uploads = createUploadLoop({ outbox, calls, live, log, now });
  const heartbeat = createHeartbeat({
    calls,
    clock,
    unsent: () => outbox.count(),
    lastOutage: () => policy.lastOutage,
  });
  const sink = createRecording({
    store,
    insight,
    clock,
    log,
    live,
    dataDir: options.dataDir,
    onBatchWaiting: () => {
      if (uploads.batchWaiting()) loops?.upload.trigger();
    },
    onRecovered: () => loops?.upload.trigger(),
    holds: (guid) => checkSet.holds(guid),
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
    probeContext: () => ({ ...network.probe(), ...options.probeContext }),
    // A check that went down or came back is news for the server (it alerts from results): sent at once.
    onTransition: (transition) => {
      insight.announce(transition);
      loops?.upload.trigger();
    },
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
    lastResult: (guid, privateCheck) => insight.lastResult(guid, privateCheck),
    downSince: (guid) => insight.transitions.downSince(guid),
    flapping: (guid) => insight.transitions.flapping(guid),
    egressPolicy: () => network.probe().egressPolicy,
    settingsProblem: () => network.settingsProblem(),
  });

  // What `status --json` (another process) reads of this running agent: live-state.json.
  const publisher = startLivePublisher({ dataDir: options.dataDir, clock, live, tunables, identity, checkSet });

  function startAll(): void {
    probing.start();
    loops = startServiceLoops({
      clock,
      log,
      calls,
      tunables,
      sync: (signal) => checkSet.sync(signal),
      upload: (signal) => uploads.upload(signal),
      status: heartbeat.status,
      ping: heartbeat.ping,
      watchConnectivity: () => policy.watch(),
    });
  }

  async function stopAll(): Promise<void> {
    const running = loops;
    loops = undefined;
    await Promise.all([...Object.values(running ?? {}).map((l) => l.stop()), probing.stop()]);
    sink.flush();
    loadReporter.clear();
  }

  async function stopAgent(): Promise<void> {
    lifecycle.close();
    await stopAll();
    await finalUpload({
      log,
      enrolled: () => identity.current() !== undefined,
      keyAccepted: () => live.get().auth === 'ok',
      offline: () => policy.offline,
      unsent: () => outbox.count(),
      upload: (signal) => uploads.upload(signal),
      timeoutMs: tunables.finalUploadMs,
    });
    await identity.close();
    checkSet.close();
    const lost = sink.close();
    if (lost.unsaved + lost.dropped > 0) {
      log.error(
        { unsaved: lost.unsaved, dropped: lost.dropped },
        `${lost.unsaved + lost.dropped} results could not be saved before stopping (${live.get().storeProblem ?? 'the store did not take them'})`,
      );
    }
    absences.close();
    insight.close();
    publisher.close();
    store.close();
  }

  const lifecycle = createIdentityLifecycle({
    identity,
    live,
    log,
    clock,
    tunables,
    keyFile: options.vault.file,
    dropped: () => outbox.dropped(),
    startLoops: startAll,
    stopLoops: stopAll,
    onForgotten: () => checkSet.refresh(),
  });

  let stopping: Promise<void> | undefined;
  return {
    async start() {
      if (options.privateChecksFile !== undefined) await checkSet.useFile(options.privateChecksFile);
      else checkSet.refresh();
      await lifecycle.start();
    },
    stop() {
      // Idempotent: the shell and the CLI may both ask; a second call waits for the first.
      stopping ??= stopAgent();
      return stopping;
    },
    enroll: (input) => lifecycle.enroll(input),
    syncNow: () => checkSet.sync(),
    uploadNow: () => uploads.upload(),
    resendSetAside: () => uploads.resendSetAside(),
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
    forget: () => lifecycle.forget(),
    async setNetwork(settings) {
      network.set(settings);
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
    serverAbsences: view.serverAbsences,
    insight,
    state: live.get,
    onChange: live.onChange,
    onTransition: insight.onTransition,
    clockJumped: () => probing.clockJumped({ kind: 'resume' }),
  };
}
