// What a finished run becomes, decided by the offline policy against real loopback targets.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src-main/agent/base/clock.ts';
import { storeFile } from '../../../src-main/agent/base/data-dir.ts';
import type { Endpoint } from '../../../src-main/agent/health/connectivity.ts';
import { createOfflinePolicy } from '../../../src-main/agent/health/offline-policy.ts';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { closedPort, listen, loopback, startSilentPort } from '../../targets/index.ts';
import { tempDataDir } from '../../support/temp-dir.ts';
import { unansweredRun } from '../../support/probe-outcomes.ts';

type Network = 'silent' | 'refusing' | 'listening';

describe('offline policy: what a failed run becomes', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function target(network: Network): Promise<Endpoint> {
    if (network === 'refusing') return { host: loopback, port: await closedPort() };
    if (network === 'silent') {
      const silent = await startSilentPort();
      closers.push(() => silent.close());
      return { host: loopback, port: silent.port };
    }
    const server = createServer((socket) => socket.destroy());
    const port = await listen(server);
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return { host: loopback, port };
  }

  it.each([
    {
      name: 'a 503 while no target answers: a real failure, no outage',
      outcome: unansweredRun({ httpStatus: 503, latencyMs: 3, answered: true, error: 'status 503' }),
      network: 'silent',
      skipped: false,
      offline: false,
    },
    {
      name: 'a refused target while no target answers: a real failure',
      outcome: unansweredRun({ answered: true, error: 'connection refused' }),
      network: 'silent',
      skipped: false,
      offline: false,
    },
    {
      name: 'no answer while no target answers: skipped, an outage starts',
      outcome: unansweredRun({}),
      network: 'silent',
      skipped: true,
      offline: true,
    },
    {
      name: 'no answer while the server refuses: a real failure (server unavailable, not offline)',
      outcome: unansweredRun({}),
      network: 'refusing',
      skipped: false,
      offline: false,
    },
    {
      name: 'no answer while a target answers: a real failure',
      outcome: unansweredRun({}),
      network: 'listening',
      skipped: false,
      offline: false,
    },
    {
      name: 'an unusable definition: a real failure whatever the network',
      outcome: unansweredRun({ invalidDefinition: true, error: 'check has no URL' }),
      network: 'silent',
      skipped: false,
      offline: false,
    },
  ] as const)('$name', async ({ outcome, network, skipped, offline }) => {
    const db = openDatabase(storeFile(await tempDataDir()));
    const live = createLiveState(initialState(new Date(), 0));
    const endpoint = await target(network);
    const policy = createOfflinePolicy({
      db,
      clock: systemClock,
      log: silentLogger,
      live,
      targets: () => [endpoint],
      timeoutMs: 300,
      offlineProbeMs: 50,
      onOffline: () => undefined,
      onOnline: () => undefined,
    });
    expect(await policy.skipsRun(outcome)).toBe(skipped);
    expect(policy.offline).toBe(offline);
    expect(live.get().skippedOffline).toBe(skipped ? 1 : 0);
    db.close();
  });
});
