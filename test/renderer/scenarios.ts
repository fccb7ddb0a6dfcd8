// The failure scenarios of issue 25 as the window receives them, built by the agent's own code
// wherever it exists: the server-call failures come from the real classifier (networkError) and
// are recorded by the real service-call bookkeeping (live state, loops, connection state); the
// snapshot is the agent's buildSnapshot; the private definitions go through the real reader,
// its keep-the-last-good rule and summary; check errors come from the probes' describeError; an
// enrollment failure is the real enroll()'s answer. Only what has no pure producer (the event
// log rows, the outage and server-absence rows, the rollup buckets) is written here, in the shapes the store gives.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runnableChecks } from '../../src-main/agent/checks/runnable-checks.ts';
import {
  summarizePrivateDefinitions,
  type PrivateDefinitionsSummary,
} from '../../src-main/agent/checks/private-definitions/index.ts';
import { nextState, type PrivateDefinitionsState } from '../../src-main/agent/checks/private-definitions/state.ts';
import { createServiceCalls } from '../../src-main/agent/delivery/service-calls.ts';
import { agentDefaults } from '../../src-main/agent/defaults.ts';
import { enroll, type EnrollInput } from '../../src-main/agent/identity/enrollment.ts';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { initialState, type AgentState } from '../../src-main/agent/live/state.ts';
import { describeError } from '../../src-main/agent/probes/errors.ts';
import type { ProbeOutcome } from '../../src-main/agent/probes/types.ts';
import { agentConditions } from '../../src-main/agent/read/check-insight.ts';
import { explainRun } from '../../src-main/agent/read/run-explanation.ts';
import { buildSnapshot } from '../../src-main/agent/read/snapshot.ts';
import { describeStoreProblem } from '../../src-main/agent/results/result-sink.ts';
import type { StoredCheck } from '../../src-main/agent/store/checks.ts';
import { kindForStatus, networkError, type Route } from '../../src-main/agent/wire/api-error.ts';
import type { ApiError } from '../../src-main/agent/wire/failure.ts';
import { createHandlers } from '../../src-main/ipc/handlers.ts';
import type {
  AgentEvent,
  AgentSnapshot,
  CheckWindow,
  EnrollResult,
  HistoryEntry,
  OutageRecord,
  RunResult,
  ServerAbsence,
  Settings,
} from '../../src-main/ipc/contract.ts';
import { wireCheck } from '../support/wire-fixtures.ts';
import { createFakeClock } from '../support/fake-clock.ts';
import { settingsOf } from './fixtures.ts';
import { failedRun } from '../support/probe-outcomes.ts';

export type ScenarioName =
  | 'server refusing'
  | 'server silent'
  | 'proxy refusing'
  | 'bad token'
  | 'bad definitions file'
  | 'disk full'
  | 'flapping check';

export const scenarioNames: readonly ScenarioName[] = [
  'server refusing',
  'server silent',
  'proxy refusing',
  'bad token',
  'bad definitions file',
  'disk full',
  'flapping check',
];

/** Everything the window asks the agent for in one scenario. */
export interface Scenario {
  snapshot: AgentSnapshot;
  settings: Settings;
  events: AgentEvent[];
  outages: OutageRecord[];
  serverAbsences: ServerAbsence[];
  history: HistoryEntry[];
  window: CheckWindow;
  /** The real IPC handlers over an agent whose server calls fail as in the scenario. */
  command: (channel: 'agent:sync-now' | 'agent:upload-now' | 'agent:resend-set-aside') => Promise<RunResult>;
  /** The real enroll() on what the form sent, over a server that answers as in the scenario. */
  enroll: (form: EnrollInput) => Promise<EnrollResult>;
}

const server = 'http://127.0.0.1:8080';
const proxy = 'http://proxy.corp.example:3128';
const dataDir = '/home/me/.config/Uptime Agent';
/** The check whose detail the test opens: down in every scenario, flapping in the last. */
export const openGuid = 'shop-guid';

const iso = (ms: number): string => new Date(ms).toISOString();

/** A Node network error as undici wraps it ("fetch failed", the errno error as its cause). */
function fetchFailed(code: string, message: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code, syscall: 'connect' }) });
}

/** The server-call failure of each scenario, made by the agent's classifier from what Node throws. */
function serverFailure(name: ScenarioName): ApiError | undefined {
  const target = `GET ${server}/api/checks`;
  switch (name) {
    case 'server refusing':
      return networkError(fetchFailed('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8080'), target, false, false);
    case 'server silent':
      return networkError(new DOMException('This operation was aborted', 'AbortError'), target, true, false);
    case 'proxy refusing': {
      const route: Route = { proxy, serverHost: '127.0.0.1:8080' };
      const error = new TypeError('fetch failed', {
        cause: new Error('Proxy response (403) !== 200 when HTTP Tunneling'),
      });
      return networkError(error, target, false, false, route);
    }
    case 'bad token':
      return { kind: kindForStatus(401), status: 401, message: `${target} answered 401 Unauthorized` };
    default:
      return undefined;
  }
}

const stored = (guid: string, name: string, privateDefinition = false): StoredCheck => ({
  check: wireCheck({ guid, name, url: privateDefinition ? '' : `https://shop.example/health?token=s3cret` }),
  privateDefinition,
  active: true,
});

const checks: StoredCheck[] = [
  stored(openGuid, 'Shop'),
  stored('api-guid', 'API'),
  stored('payroll-guid', 'Payroll', true),
  stored('intranet-guid', 'Intranet', true),
];

/** The definitions file: Intranet's entry is fine; Payroll's has a field error. */
const goodText = JSON.stringify({
  checks: [
    { guid: 'intranet-guid', url: 'https://intranet.corp/health' },
    { guid: 'payroll-guid', url: 'ftp://payroll.corp/', timeout_sec: -3 },
  ],
});

function privateState(name: ScenarioName, readAt: string, nowIso: string): PrivateDefinitionsState {
  const file = '/home/me/private-checks.json';
  const loaded = nextState({ file, entries: new Map(), problems: [] }, { kind: 'text', text: goodText }, readAt);
  if (name !== 'bad definitions file') return loaded;
  // Saved half-way in an editor: the last good version stays in use, and the reader says why.
  return nextState(loaded, { kind: 'text', text: '{ "checks": [ { "guid": "intranet-guid", ' }, nowIso);
}

/** What a probe of Shop returned: refused, as the probes say it. */
function shopOutcome(): ProbeOutcome {
  const error = describeError(
    Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:443'), { code: 'ECONNREFUSED' }),
    'shop.example',
  );
  return failedRun({
    httpStatus: 0,
    latencyMs: 0,
    decidedBy: 'connection',
    error,
    timings: { dnsMs: 2, connectMs: 1, totalMs: 3 },
  });
}

async function recordServerCalls(
  state: AgentState,
  failure: ApiError | undefined,
  clock: ReturnType<typeof createFakeClock>,
) {
  let live = state;
  const client = { clockSkewSec: () => undefined } as never;
  const calls = createServiceCalls({
    clock,
    log: silentLogger,
    tunables: agentDefaults,
    identity: () => ({ apiKey: 'k', monitorId: 'abcdefghjkmn', server, client }),
    state: () => live,
    update: (change) => (live = change(live)),
    onReachable: () => undefined,
    onUnreachable: () => undefined,
    onAuthChanged: () => undefined,
  });
  const loops = ['sync', 'upload', 'status', 'ping'] as const;
  // Connected first; then, if the scenario has one, every loop meets the failure three times.
  for (const loop of loops) await calls.call(loop, undefined, () => Promise.resolve({ ok: true }));
  await clock.advance(60_000);
  if (failure !== undefined)
    for (let i = 0; i < 3; i++) {
      for (const loop of loops) await calls.call(loop, undefined, () => Promise.resolve({ ok: false, error: failure }));
      await clock.advance(20_000);
    }
  return live;
}

/** What the real enroll() answers in this scenario (the form is sent again to this server). */
function enrollOutcome(failure: ApiError | undefined, name: ScenarioName, form: EnrollInput): Promise<EnrollResult> {
  const error: ApiError =
    name === 'bad token'
      ? {
          kind: 'auth',
          status: 401,
          reason: 'invalid enrollment token',
          message: `POST ${server}/api/monitors/enroll answered 401`,
        }
      : (failure ??
        networkError(
          fetchFailed('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8080'),
          `POST ${server}/api/monitors/enroll`,
          false,
          false,
        ));
  const client = {
    enroll: () => Promise.resolve({ ok: false as const, error }),
    close: () => Promise.resolve(),
  } as never;
  return enroll(form, {
    dataDir: mkdtempSync(join(tmpdir(), 'words-enroll-')),
    vault: {} as never,
    client: () => client,
  });
}

export async function buildScenario(name: ScenarioName): Promise<Scenario> {
  const nowMs = Date.now();
  const clock = createFakeClock(nowMs - 5 * 60_000);
  const failure = serverFailure(name);
  let state = await recordServerCalls(initialState(new Date(nowMs - 3_600_000), 0), failure, clock);
  const at = new Date(clock.now());

  if (name === 'disk full') {
    const problem = { kind: 'disk-full' as const, detail: 'database or disk is full', waiting: 7, dropped: 0 };
    state = {
      ...state,
      storeProblem: describeStoreProblem(problem, dataDir),
      storeFault: { kind: 'disk-full', folder: dataDir, dropped: 0 },
      unsavedResults: 7,
    };
  }

  const priv = privateState(name, iso(nowMs - 40 * 60_000), iso(nowMs - 2 * 60_000));
  const runnable = runnableChecks(checks, priv.entries);
  const privateDefinitions: PrivateDefinitionsSummary = summarizePrivateDefinitions(
    priv,
    runnable,
    (guid) => checks.find((c) => c.check.guid === guid)?.check.name ?? guid,
  );

  const outcome = shopOutcome();
  const shopRun: HistoryEntry = {
    check_guid: openGuid,
    ran_at: iso(nowMs - 30_000),
    success: false,
    skipped: false,
    http_status: 0,
    latency_ms: 0,
    error: outcome.error,
  };
  const flapping = name === 'flapping check';
  const snapshot = buildSnapshot({
    version: '0.1.0',
    now: at,
    state,
    identity: {
      monitorId: 'abcdefghjkmn',
      server,
      details: {
        name: 'office-pc',
        region: 'eu-west',
        country: 'DE',
        city: 'Berlin',
        enrolled_at: iso(nowMs - 86_400_000),
      },
    },
    keyProtection: 'user-only-file',
    checks,
    figures: (guid) =>
      guid === openGuid
        ? { uptimePct: 93.5, latency: [12, 0, 14, 0], beats: flapping ? 'uuduudduud' : 'uuuuuuuddd' }
        : guid === 'api-guid'
          ? { uptimePct: 100, latency: [40, 41], beats: 'uuuu' }
          : { latency: [] },
    lastResult: (guid) =>
      guid === openGuid
        ? shopRun
        : guid === 'api-guid'
          ? { ...shopRun, check_guid: guid, success: true, http_status: 200, latency_ms: 41, error: '' }
          : undefined,
    downSince: (guid) => (guid === openGuid ? iso(nowMs - 12 * 60_000) : undefined),
    flapping: (guid) => (flapping && guid === openGuid ? { since: iso(nowMs - 9 * 60_000), changes: 6 } : undefined),
    outbox: {
      unsent: failure === undefined ? 0 : 14,
      bytes: 5_300,
      ...(failure === undefined ? {} : { oldestRanAt: iso(nowMs - 130_000) }),
      dropped: 0,
      rejectedCount: 1,
      rejected: [
        {
          check_guid: 'api-guid',
          ran_at: iso(nowMs - 3_600_000),
          reason: 'latency_ms must be at most 600000',
          rejected_at: iso(nowMs - 3_500_000),
        },
      ],
    },
    unsentPerCheck: new Map(
      failure === undefined
        ? []
        : [
            [openGuid, 9],
            ['api-guid', 5],
          ],
    ),
    privateDefinitions,
    egressPolicy: 'open',
  });

  const conditions = agentConditions(state);
  const events: AgentEvent[] = [
    ...Object.entries(conditions).map(([kind, reason], i) => ({
      id: 100 + i,
      kind: kind as AgentEvent['kind'],
      checkGuid: '',
      checkName: '',
      startedAt: iso(nowMs - 2 * 60_000),
      reason,
    })),
    flapping
      ? {
          id: 7,
          kind: 'flapping',
          checkGuid: openGuid,
          checkName: 'Shop',
          startedAt: iso(nowMs - 9 * 60_000),
          reason: 'changed between failing and passing 6 times in 9 minutes',
          pattern: {
            downs: 3,
            downSec: 150,
            recent: [
              { from: iso(nowMs - 8 * 60_000), to: iso(nowMs - 7 * 60_000) },
              { from: iso(nowMs - 5 * 60_000), to: iso(nowMs - 4 * 60_000) },
              { from: iso(nowMs - 60_000) },
            ],
          },
        }
      : {
          id: 6,
          kind: 'down',
          checkGuid: openGuid,
          checkName: 'Shop',
          startedAt: iso(nowMs - 12 * 60_000),
          reason: outcome.error,
        },
    {
      id: 5,
      kind: 'down',
      checkGuid: 'api-guid',
      checkName: 'API',
      startedAt: iso(nowMs - 90 * 60_000),
      endedAt: iso(nowMs - 80 * 60_000),
      reason: 'status 503, expected 200',
      endReason: 'status 200',
    },
  ];
  if (name === 'disk full')
    events.unshift({
      id: 120,
      kind: 'store-full',
      checkGuid: '',
      checkName: '',
      startedAt: iso(nowMs - 60_000),
      reason: describeStoreProblem(
        { kind: 'disk-full', detail: 'database or disk is full', waiting: 7, dropped: 0 },
        dataDir,
      ),
    });

  // The server's absences: one yesterday that ended and drained; one going on now when the
  // scenario's server calls get no usable answer (a network failure or a timeout).
  const away = failure !== undefined && (failure.kind === 'network' || failure.kind === 'timeout');
  const serverAbsences: ServerAbsence[] = [
    ...(away
      ? [
          {
            started_at: iso(nowMs - 4 * 60_000),
            ended_at: null,
            duration_sec: null,
            last_failure: {
              kind: failure.kind,
              ...(failure.cause === undefined ? {} : { cause: failure.cause }),
              ...(failure.status === undefined ? {} : { status: failure.status }),
            },
            waiting_at_start: 2,
            waiting_most: 14,
            waiting_at_end: null,
            delivered_after: 0,
            drained_at: null,
            end: null,
          },
        ]
      : []),
    {
      started_at: iso(nowMs - 26 * 3_600_000),
      ended_at: iso(nowMs - 26 * 3_600_000 + 300_000),
      duration_sec: 300,
      last_failure: { kind: 'server', status: 503 },
      waiting_at_start: 0,
      waiting_most: 40,
      waiting_at_end: 40,
      delivered_after: 40,
      drained_at: iso(nowMs - 26 * 3_600_000 + 310_000),
      end: 'answered',
    },
  ];
  const [latestAbsence] = serverAbsences;
  if (away && latestAbsence !== undefined)
    events.unshift({
      id: 130,
      kind: 'server-unreachable',
      checkGuid: '',
      checkName: '',
      startedAt: latestAbsence.started_at,
      reason: failure.message,
      absence: latestAbsence,
      absences: 1,
    });

  const run = explainRun(outcome, new Date(nowMs - 30_000), outcome.error, false);
  const bucket = (minutesAgo: number, failures: number) => ({
    startMs: nowMs - minutesAgo * 60_000,
    runs: 1,
    failures,
    skipped: 0,
    ...(failures === 0 ? { latency: { min: 12, median: 13, p95: 15, max: 15 } } : {}),
  });
  const window: CheckWindow = {
    range: '1h',
    fromMs: nowMs - 3_600_000,
    toMs: nowMs + 1,
    bucketMs: 60_000,
    buckets: [bucket(14, 0), bucket(13, 0), bucket(12, 1), bucket(11, 1)],
    uptime: {
      '1h': { runs: 60, failures: 12, skipped: 0 },
      '24h': { runs: 1440, failures: 12, skipped: 3 },
      '7d': { runs: 10_080, failures: 12, skipped: 3 },
    },
    lastRun: run,
    events: events.filter((e) => e.checkGuid === openGuid),
  };

  // Without a server failure of its own, the scenario's Sync now meets a server in trouble (503).
  const callFailure: ApiError = failure ?? {
    kind: 'server',
    status: 503,
    message: `GET ${server}/api/checks answered 503`,
  };
  const failed = { ok: false as const, error: callFailure };
  const agent = {
    syncNow: () => Promise.resolve(failed),
    uploadNow: () => Promise.resolve(failed),
    resendSetAside: () => Promise.resolve({ moved: 1, upload: failed }),
  };
  const handlers = createHandlers({
    agent: agent as never,
    settings: { get: () => settingsOf(), update: () => settingsOf() },
    host: {} as never,
    log: silentLogger,
  });
  return {
    snapshot,
    settings: settingsOf({
      serverUrl: server,
      ...(name === 'proxy refusing' ? { proxyUrl: 'http://user:****@proxy.corp.example:3128' } : {}),
      privateChecksFile: '/home/me/private-checks.json',
    }),
    events,
    outages: [
      { started_at: iso(nowMs - 5 * 3_600_000), ended_at: iso(nowMs - 5 * 3_600_000 + 95_000), duration_sec: 95 },
    ],
    serverAbsences,
    history: [
      shopRun,
      { ...shopRun, ran_at: iso(nowMs - 90_000) },
      { ...shopRun, ran_at: iso(nowMs - 150_000), success: true, http_status: 200, latency_ms: 13, error: '' },
    ],
    window,
    command: async (channel) => {
      const answer = await handlers(channel, {});
      if (!answer.ok) throw new Error(`${channel} failed: ${answer.error.kind}`);
      return answer.value as RunResult;
    },
    enroll: (form) => enrollOutcome(failure, name, form),
  };
}
