// What the window sees of bad local state, from an in-process agent: a full disk named in the
// snapshot (state and problems) and gone by itself once space is free; after a new enrollment
// the previous monitor's unsent results are shown aside, not sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../src-main/agent/key-vault.ts';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually, fastTunables } from '../support/agent-harness.ts';
import { tempDataDir } from '../support/cli.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason } from '../support/tmpfs.ts';

describe('local state in the agent snapshot', () => {
  let server: ReferenceServer;
  let target: Server;
  let targetUrl: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    target = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await server.close();
    target.closeAllConnections();
    target.close();
  });
  const place = { name: 'pc', region: 'r', country: 'DE', city: 'Berlin' };

  it.skipIf(!canMountTmpfs)(`names a full disk and clears it by itself (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`, async () => {
    const { token, orgId } = withOrg(server);
    const disk = mountSmallDisk(2048);
    const agent = createAgent({ dataDir: disk.dir, vault: fileKeyVault(disk.dir), tunables: fastTunables });
    try {
      await agent.start();
      const enrolled = await agent.enroll({ server: server.url, token, ...place });
      if (!enrolled.ok) throw new Error(enrolled.message);
      server.admin.assign(server.admin.createCheck({ name: 'C', url: targetUrl, interval_sec: 1, orgId }).guid, enrolled.monitorId);
      await eventually(() => server.results(enrolled.monitorId).length >= 1, 20_000, 'results delivered');
      disk.fill();
      const full = await eventually(() => agent.snapshot().storeProblem, 20_000, 'the full disk in the snapshot');
      expect(full).toMatch(new RegExp(`^the disk holding ${disk.dir} is full: \\d+ results? (is|are) waiting in memory; free space$`));
      expect(agent.snapshot().problems.find((p) => p.kind === 'store-problem')?.message).toMatch(/^The disk holding .* is full: .*; free space\.$/);
      disk.free();
      await eventually(() => agent.snapshot().storeProblem === undefined, 10_000, 'recovered');
      expect(agent.snapshot().problems.map((p) => p.kind)).not.toContain('store-problem');
    } finally {
      await agent.stop();
      disk.unmount();
    }
  });

  it('after a new enrollment from the window, the previous monitor\'s unsent results are aside and visible', async () => {
    const { token, orgId } = withOrg(server);
    const dataDir = await tempDataDir();
    const agent = createAgent({ dataDir, vault: fileKeyVault(dataDir), tunables: { ...fastTunables, uploadIntervalMs: 3_600_000 } });
    try {
      await agent.start();
      const first = await agent.enroll({ server: server.url, token, ...place });
      if (!first.ok) throw new Error(first.message);
      server.admin.assign(server.admin.createCheck({ name: 'C', url: targetUrl, interval_sec: 1, orgId }).guid, first.monitorId);
      await eventually(() => agent.snapshot().outbox.unsent >= 2, 20_000, 'unsent results');
      const second = await agent.enroll({ server: server.url, token, ...place });
      if (!second.ok) throw new Error(second.message);
      const aside = agent.snapshot().outbox.aside;
      expect(aside).toHaveLength(1);
      expect(aside?.[0]?.monitorId).toBe(first.monitorId);
      expect(aside?.[0]?.count).toBeGreaterThanOrEqual(2);
      expect(agent.snapshot().outbox.unsent).toBe(0);
      expect(agent.snapshot().problems.find((p) => p.kind === 'results-aside')?.message).toContain(`Reclaim monitor ${first.monitorId} to send them`);
      await agent.uploadNow();
      expect(server.results(second.monitorId)).toHaveLength(0);
    } finally {
      await agent.stop();
    }
  });
});
