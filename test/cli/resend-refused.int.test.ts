// `uptime-agent run --resend-refused` puts the results the server refused (set aside) back in the
// queue and sends them, e.g. once the server was fixed (issue 24 §1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDefaults } from '../../src-main/agent/defaults.ts';
import { openAgentStore } from '../../src-main/agent/store/agent-store.ts';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { tempDataDir } from '../support/cli.ts';
import { enrollDataDir, startRun } from '../support/cli-agent.ts';

describe('uptime-agent run --resend-refused', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(() => server.close());

  it('sends the set-aside results again, and they leave the set-aside list', async () => {
    const { orgId, token } = withOrg(server);
    const dataDir = await tempDataDir();
    const monitorId = await enrollDataDir(server, token, dataDir);
    const check = server.admin.createCheck({ name: 'C', url: 'http://127.0.0.1:9/', interval_sec: 3600, orgId });
    server.admin.assign(check.guid, monitorId);
    // Two results a broken server release refused, set aside by an earlier run.
    const store = openAgentStore(dataDir, agentDefaults);
    store.outbox.setOwner(monitorId);
    store.outbox.insert(
      [1, 2].map((i) => ({
        check_guid: check.guid,
        monitor_id: monitorId,
        ran_at: new Date(Date.now() - i * 60_000).toISOString(),
        success: true,
        http_status: 200,
        latency_ms: 5,
      })),
    );
    for (const row of store.outbox.peek(10, 1 << 20)) store.outbox.reject(row, 'refused with 400', new Date());
    expect(store.outbox.rejectedCount()).toBe(2);
    store.close();

    const run = startRun(dataDir, ['--resend-refused', '--upload-interval', '0.2']);
    await eventually(() => server.results(monitorId).length >= 2, 20_000, 'the refused results delivered');
    const ended = await run.stop();
    expect(ended.code).toBe(0);
    const after = openAgentStore(dataDir, agentDefaults);
    expect(after.outbox.rejectedCount()).toBe(0);
    after.close();
    expect(server.results(monitorId)).toHaveLength(2);
  });
});
