// Agent snapshots and host facts as the views receive them, built from small overrides so each
// test says only what matters to it.
import type { AgentSnapshot, AppInfo, CheckView, CheckWindow, Settings } from '../../src-main/ipc/contract.ts';
import { countChecks } from '../../src-main/agent/read/check-health.ts';

const idle = { failures: 0 };

export function snapshotOf(overrides: Partial<AgentSnapshot> = {}): AgentSnapshot {
  const checks = overrides.checks ?? [];
  return {
    version: '0.1.0',
    takenAt: '2026-11-21T10:00:00.000Z',
    enrolled: true,
    identity: {
      monitorId: 'abcdefghjkmn',
      server: 'https://uptime.example',
      name: 'office-pc',
      region: 'eu-west',
      country: 'DE',
      city: 'Berlin',
      enrolled_at: '2026-11-20T09:00:00.000Z',
    },
    keyProtection: 'user-only-file',
    paused: false,
    auth: 'ok',
    connectivity: { online: true, lastContactAt: '2026-11-21T09:59:58.000Z' },
    connection: {
      state: 'connected',
      since: '2026-11-21T09:00:00.000Z',
      lastSuccessAt: '2026-11-21T09:59:58.000Z',
    },
    sync: { ...idle, lastOkAt: '2026-11-21T09:59:58.000Z' },
    upload: { ...idle, lastOkAt: '2026-11-21T09:59:50.000Z' },
    status: idle,
    ping: idle,
    outbox: { unsent: 0, bytes: 0, dropped: 0, rejectedCount: 0, rejected: [] },
    skippedOffline: 0,
    checks,
    counts: countChecks(checks),
    privateDefinitions: { defined: [], matched: [], missing: [], unknown: [], problems: [] },
    problems: [],
    ...overrides,
  };
}

export const notEnrolled = (): AgentSnapshot => {
  const { identity: _none, ...rest } = snapshotOf({ enrolled: false });
  return rest;
};

export function checkOf(overrides: Partial<CheckView> & { guid: string; name: string }): CheckView {
  return {
    type: 'http',
    target: `https://example.test/${overrides.guid}`,
    intervalSec: 60,
    effectiveIntervalSec: 60,
    sharedBy: 1,
    enabled: true,
    privateDefinition: false,
    runnable: true,
    health: 'up',
    latency: [12, 15, 11, 40, 13],
    unsent: 0,
    uptimePct: 100,
    // A check said to be down failed its last run, so that the counts agree with its health.
    lastResult:
      overrides.health === 'down'
        ? {
            check_guid: overrides.guid,
            ran_at: '2026-11-21T09:59:30.000Z',
            success: false,
            skipped: false,
            http_status: 503,
            latency_ms: 13,
            error: 'status 503, expected 200',
          }
        : {
            check_guid: overrides.guid,
            ran_at: '2026-11-21T09:59:30.000Z',
            success: true,
            skipped: false,
            http_status: 200,
            latency_ms: 13,
            error: '',
          },
    ...overrides,
  };
}

export function appInfoOf(overrides: Partial<AppInfo> = {}): AppInfo {
  return {
    version: '0.1.0',
    logsFolder: '/home/me/.config/Uptime Agent/logs',
    dataFolder: '/home/me/.config/Uptime Agent',
    host: 'desktop',
    platform: 'linux',
    hostName: 'office-pc',
    keyStorage: 'encrypted with the OS keyring',
    ...overrides,
  };
}

export function settingsOf(overrides: Partial<Settings> = {}): Settings {
  return {
    serverUrl: 'https://uptime.example',
    monitorName: 'office-pc',
    region: 'eu-west',
    country: 'DE',
    city: 'Berlin',
    notifications: true,
    launchAtLogin: false,
    intervals: {},
    connectivityTargets: [],
    checksUseProxy: false,
    egressPolicy: 'open',
    outboxLimits: {},
    ...overrides,
  };
}

const noRuns = { runs: 0, failures: 0, skipped: 0 };

/** A check's window with no runs: tests add the buckets, figures and events they need. */
export function windowOf(overrides: Partial<CheckWindow> = {}): CheckWindow {
  const toMs = Date.parse('2026-11-21T10:00:00.000Z');
  return {
    range: '1h',
    fromMs: toMs - 3_600_000,
    toMs,
    bucketMs: 60_000,
    buckets: [],
    uptime: { '1h': noRuns, '24h': noRuns, '7d': noRuns },
    events: [],
    ...overrides,
  };
}
