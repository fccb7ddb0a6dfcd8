// What the window sees of bad local state, from an in-process agent: a full disk named in the
// snapshot (state and problems) and gone by itself once space is free; after a new enrollment
// the previous monitor's unsent results are shown aside, not sent.
import { problemText } from '../../../src-main/ipc/problem-words.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason } from '../../support/tmpfs.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

describe('local state in the agent snapshot', () => {
  let target: HttpTarget;
  let targetUrl: string;
  beforeAll(async () => {
    target = await startHttpTarget({ '/': { body: 'ok' } });
    targetUrl = `${target.url}/`;
  });
  afterAll(() => target.close());

  it.skipIf(!canMountTmpfs)(
    `names a full disk and clears it by itself (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`,
    async () => {
      const disk = mountSmallDisk(2048);
      let h: Harness | undefined;
      try {
        h = await enrolledAgent({ dataDir: disk.dir });
        const { server, agent, monitorId } = h;
        server.admin.assign(
          server.admin.createCheck({ name: 'C', url: targetUrl, interval_sec: 1, orgId: h.orgId }).guid,
          monitorId,
        );
        await eventually(() => server.results(monitorId).length >= 1, 20_000, 'results delivered');
        disk.fill();
        const full = await eventually(() => agent.snapshot().storeProblem, 20_000, 'the full disk in the snapshot');
        expect(full).toMatch(
          new RegExp(`^the disk holding ${disk.dir} is full: \\d+ results? (is|are) waiting in memory; free space$`),
        );
        const problem = agent.snapshot().problems.find((p) => p.kind === 'store-problem');
        expect(problem === undefined ? '' : problemText(problem)).toMatch(
          /^The disk holding .* is full: .*; free space\.$/,
        );
        disk.free();
        await eventually(() => agent.snapshot().storeProblem === undefined, 10_000, 'recovered');
        expect(agent.snapshot().problems.map((p) => p.kind)).not.toContain('store-problem');
      } finally {
        await h?.close();
        disk.unmount();
      }
    },
  );

  it("after a new enrollment from the window, the previous monitor's unsent results are aside and visible", async () => {
    const h = await enrolledAgent({ tunables: { uploadIntervalMs: 3_600_000 } });
    const { server, agent } = h;
    try {
      const first = h.monitorId;
      server.admin.assign(
        server.admin.createCheck({ name: 'C', url: targetUrl, interval_sec: 1, orgId: h.orgId }).guid,
        first,
      );
      await eventually(() => agent.snapshot().outbox.unsent >= 2, 20_000, 'unsent results');
      const second = await agent.enroll({
        server: server.url,
        token: h.token,
        name: 'pc',
        region: 'r',
        country: 'DE',
        city: 'Berlin',
      });
      if (!second.ok) throw new Error(second.message);
      const aside = agent.snapshot().outbox.aside;
      expect(aside).toHaveLength(1);
      expect(aside?.[0]?.monitorId).toBe(first);
      expect(aside?.[0]?.count).toBeGreaterThanOrEqual(2);
      expect(agent.snapshot().outbox.unsent).toBe(0);
      const problem = agent.snapshot().problems.find((p) => p.kind === 'results-aside');
      expect(problem === undefined ? '' : problemText(problem)).toContain(`Reclaim monitor ${first} to send them`);
      await agent.uploadNow();
      expect(server.results(second.monitorId)).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});
