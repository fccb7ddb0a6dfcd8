// Issue 27 point 10: on a full disk, saving resumes as soon as there is room for the next commit,
// not only once the journal's whole checkpoint size (~4 MiB) is free again. A 4 MiB tmpfs as the
// data folder, filled to the last byte, then 1.5 MB given back: the running `uptime-agent run`
// saves again, and nothing is dropped (the memory bound is never reached in this time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { enrollDataDir, startRun, statusJson } from '../support/cli-agent.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason } from '../support/tmpfs.ts';
import { startHttpTarget, type HttpTarget } from '../targets/index.ts';

interface StatusJson {
  store_problem: string | null;
  unsaved_results: number;
  dropped_results: number;
  unsent_results: number;
}

describe.skipIf(!canMountTmpfs)(`a full 4 MiB disk (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`, () => {
  let server: ReferenceServer;
  let target: HttpTarget;
  beforeAll(async () => {
    server = await startReferenceServer();
    target = await startHttpTarget({ '/': { body: 'ok' } });
  });
  afterAll(async () => {
    await server.close();
    await target.close();
  });

  it('saves again once 1.5 MB is free, and drops nothing', async () => {
    const disk = mountSmallDisk(4096);
    try {
      const { token, orgId } = withOrg(server);
      const monitorId = await enrollDataDir(server, token, disk.dir);
      for (let i = 0; i < 30; i++)
        server.admin.assign(
          server.admin.createCheck({ name: `c${i}`, url: `${target.url}/?c=${i}`, interval_sec: 1, orgId }).guid,
          monitorId,
        );
      // Uploads held off: the outbox and its journal grow, as behind a slow or absent server.
      const run = startRun(disk.dir, ['--sync-interval', '0.3', '--upload-interval', '3600']);
      try {
        await eventually(
          async () => (await statusJson<StatusJson>(disk.dir)).unsent_results >= 30,
          20_000,
          'results saved',
        );
        disk.fill();
        await eventually(
          async () => {
            const s = await statusJson<StatusJson>(disk.dir);
            return s.store_problem !== null && s.unsaved_results >= 30;
          },
          20_000,
          'the full disk in status',
        );
        disk.free(1_500_000);
        const resumed = await eventually(
          async () => {
            const s = await statusJson<StatusJson>(disk.dir);
            return s.store_problem === null ? s : undefined;
          },
          20_000,
          'saving resumed with 1.5 MB free',
        );
        expect(resumed.dropped_results).toBe(0);
        // And it keeps saving: the next results land too.
        const saved = resumed.unsent_results;
        await eventually(
          async () => (await statusJson<StatusJson>(disk.dir)).unsent_results >= saved + 30,
          20_000,
          'more results saved',
        );
      } finally {
        const stopped = await run.stop();
        expect(stopped.code, stopped.stderr).toBe(0);
        expect(stopped.stderr).not.toMatch(/could not be saved before stopping/);
      }
    } finally {
      disk.unmount();
    }
  }, 120_000);
});
