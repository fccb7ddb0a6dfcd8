// Issue 27 point 3 with the real command: `uptime-agent run` on a store missing a table used to
// exit 8 saying that `run` sets a damaged store aside. It now does: the store is kept aside, its
// unsent results are carried over and delivered, and the agent runs.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFile } from '../../../src-main/agent/base/data-dir.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createOutbox } from '../../../src-main/agent/store/outbox.ts';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/index.ts';
import { withOrg } from '../../reference-server/testing.ts';
import { eventually } from '../../support/agent-harness.ts';
import { enrollDataDir, startRun } from '../../support/cli-agent.ts';
import { tempDataDir } from '../../support/temp-dir.ts';

describe('run on a store missing a table', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(() => server.close());

  it('sets it aside, delivers its 20 unsent results, and runs', async () => {
    const { token, orgId } = withOrg(server);
    const dataDir = await tempDataDir();
    const monitorId = await enrollDataDir(server, token, dataDir);
    const guid = server.admin.createCheck({ name: 'c', url: 'http://127.0.0.1:9/', interval_sec: 3600, orgId }).guid;
    server.admin.assign(guid, monitorId);
    const db = openDatabase(storeFile(dataDir));
    createOutbox(db, { maxCount: 1000, maxBytes: 1 << 20 }).insert(
      Array.from({ length: 20 }, (_, i) => ({
        check_guid: guid,
        monitor_id: monitorId,
        ran_at: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
        success: true,
        http_status: 200,
        latency_ms: 3,
      })),
    );
    db.exec('DROP TABLE history');
    db.close();

    const run = startRun(dataDir, ['--upload-interval', '0.3']);
    await eventually(
      () => server.results(monitorId).filter((r) => r.ranAt.startsWith('2026-11-21T10:00')).length === 20,
      20_000,
      'the 20 carried-over results delivered',
    );
    const stopped = await run.stop();
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toMatch(
      /the store was damaged \(missing table history\); it is kept as .*agent\.db\.damaged-.*, its 20 readable unsent results were moved into a new store \(none was lost\)/,
    );
    expect(readdirSync(dataDir).some((f) => f.startsWith('agent.db.damaged-'))).toBe(true);
  });
});
