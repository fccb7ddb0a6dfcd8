// Uploading while the disk is full (a small tmpfs): a delete that did not happen stops the drain,
// so delivered results are not re-sent in a storm; once space is free, the outbox empties.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox } from '../../../src-main/agent/delivery/uploader.ts';
import { enroll } from '../../../src-main/agent/identity/enrollment.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createOutbox } from '../../../src-main/agent/store/outbox.ts';
import { createApiClient } from '../../../src-main/agent/wire/api-client.ts';
import type { WireResult } from '../../../src-main/agent/wire/schemas.ts';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/index.ts';
import { withOrg } from '../../reference-server/testing.ts';
import { tempDataDir } from '../../support/cli.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason, type SmallDisk } from '../../support/tmpfs.ts';

describe.skipIf(!canMountTmpfs)(`upload with a full disk (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`, () => {
  let server: ReferenceServer;
  let disk: SmallDisk;
  beforeAll(async () => {
    server = await startReferenceServer();
    disk = mountSmallDisk(512);
  });
  afterAll(async () => {
    disk.unmount();
    await server.close();
  });

  it('stops when the delivered rows cannot be deleted: 11 results sent once, not thousands of times', async () => {
    const { orgId, token } = withOrg(server);
    const keyDir = await tempDataDir();
    const vault = fileKeyVault(keyDir);
    const enrolled = await enroll(
      { server: server.url, token, name: 'pc', region: 'r', country: 'DE', city: 'Berlin' },
      { dataDir: keyDir, vault, client: (url) => createApiClient({ baseUrl: url, userAgent: 'test' }) },
    );
    if (!enrolled.ok) throw new Error(enrolled.message);
    const check = server.admin.createCheck({ name: 'C', url: 'http://127.0.0.1:9/', interval_sec: 60, orgId });
    server.admin.assign(check.guid, enrolled.monitorId);
    const apiKey = (await vault.load())?.apiKey ?? '';

    const db = openDatabase(join(disk.dir, 'agent.db'));
    const outbox = createOutbox(db, { maxCount: 1000, maxBytes: 1 << 20 });
    const results: WireResult[] = Array.from({ length: 11 }, (_, i) => ({
      check_guid: check.guid,
      monitor_id: enrolled.monitorId,
      ran_at: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
      success: true,
      http_status: 200,
      latency_ms: 2,
    }));
    outbox.insert(results);
    outbox.setOwner(enrolled.monitorId);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    disk.fill();

    const client = createApiClient({ baseUrl: server.url, userAgent: 'test' });
    try {
      const stalled = await drainOutbox({
        outbox,
        client,
        apiKey,
        now: () => new Date(),
        signal: AbortSignal.timeout(5000),
      });
      expect(stalled).toMatchObject({ ok: false, error: { kind: 'local-store' }, report: { calls: 1 } });
      if (!stalled.ok) expect(stalled.error.message).toContain('database or disk is full');
      expect(server.requests({ endpoint: 'results' })).toHaveLength(1);
      expect(outbox.count()).toBe(11);

      disk.free();
      const drained = await drainOutbox({ outbox, client, apiKey, now: () => new Date() });
      expect(drained.ok).toBe(true);
      expect(outbox.count()).toBe(0);
      // Sent twice in all (once before the failed delete, once after), stored once.
      expect(server.requests({ endpoint: 'results' })).toHaveLength(2);
      expect(server.results(enrolled.monitorId)).toHaveLength(11);
    } finally {
      await client.close();
      db.close();
    }
  });
});
