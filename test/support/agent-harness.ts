// An in-process agent enrolled with a reference server, for integration tests.
import { createAgent, type Agent, type AgentOptions } from '../../src-main/agent/agent.ts';
import { openAgentStore, type AgentStore } from '../../src-main/agent/store/agent-store.ts';
import { fileKeyVault } from '../../src-main/agent/identity/key-vault.ts';
import { agentDefaults, type AgentTunables } from '../../src-main/agent/defaults.ts';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import type { CheckInput, CheckRecord } from '../reference-server/types.ts';
import { tempDataDir } from './cli.ts';

export interface Harness {
  server: ReferenceServer;
  orgId: string;
  token: string;
  dataDir: string;
  agent: Agent;
  /** The agent's own store, for tests that seed results or read rows (one process, one connection). */
  store: AgentStore;
  monitorId: string;
  /** A check of the harness's organisation, assigned to its monitor (the next sync brings it). */
  assignCheck(input: Omit<CheckInput, 'orgId'>): CheckRecord;
  close(): Promise<void>;
}

/** Quick loops for tests: seconds become tens of milliseconds. */
export const fastTunables: Partial<AgentTunables> = {
  syncIntervalMs: 100,
  uploadIntervalMs: 100,
  statusIntervalMs: 200,
  pingIntervalMs: 200,
  authRetryMs: 300,
  startupSpreadMs: 50,
  offlineProbeMs: 100,
  connectivityTimeoutMs: 500,
  retryBackoff: { baseMs: 50, maxMs: 400, factor: 2, jitter: 0.5 },
};

export async function enrolledAgent(
  options: {
    tunables?: Partial<AgentTunables>;
    server?: ReferenceServerOptions;
    agent?: Partial<AgentOptions>;
    start?: boolean;
    /** A data folder of the test's own (a small disk); else a fresh temporary one. */
    dataDir?: string;
  } = {},
): Promise<Harness> {
  const server = await startReferenceServer(options.server);
  const { orgId, token } = withOrg(server);
  const dataDir = options.dataDir ?? (await tempDataDir());
  const tunables = { ...fastTunables, ...options.tunables };
  const store = openAgentStore(dataDir, { ...agentDefaults, ...tunables });
  const agent = createAgent({ dataDir, vault: fileKeyVault(dataDir), tunables, store, ...options.agent });
  if (options.start !== false) await agent.start();
  const outcome = await agent.enroll({
    server: server.url,
    token,
    name: 'test-pc',
    region: 'r',
    country: 'DE',
    city: 'Berlin',
  });
  if (!outcome.ok) throw new Error(`enroll failed: ${outcome.message}`);
  // The first sync runs at once after enrollment; tests start from its settled state.
  await eventually(() => agent.state().loops.sync.lastOkAt, 10_000, 'the first sync');
  return {
    server,
    orgId,
    token,
    dataDir,
    agent,
    store,
    monitorId: outcome.monitorId,
    assignCheck(input) {
      const check = server.admin.createCheck({ ...input, orgId });
      server.admin.assign(check.guid, outcome.monitorId);
      return check;
    },
    async close() {
      await agent.stop();
      await server.close();
    },
  };
}

/** Polls until check() returns a value other than undefined/false, or fails after timeoutMs. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
