// `uptime-agent run` and `enroll` on a disk that really fills up (a small tmpfs as the data
// folder): the real error named in status --json, recovery by itself once space is free, nothing
// that reached the outbox lost, what could not be saved counted at stop; enroll checks first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { runCli } from '../support/cli.ts';
import { enrollArgs, enrollDataDir, startRun, statusJson } from '../support/cli-agent.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason, type SmallDisk } from '../support/tmpfs.ts';
import { startHttpTarget, type HttpTarget } from '../targets/index.ts';

interface StatusJson {
  monitor_id: string | null;
  unsent_results: number;
  store_problem: string | null;
  unsaved_results: number;
  dropped_results: number;
}

describe.skipIf(!canMountTmpfs)(`a full disk under uptime-agent (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`, () => {
  let server: ReferenceServer;
  let token: string;
  let orgId: string;
  let target: HttpTarget;
  let targetUrl: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token, orgId } = withOrg(server));
    target = await startHttpTarget({ '/': { body: 'ok' } });
    targetUrl = `${target.url}/`;
  });
  afterAll(async () => {
    await server.close();
    await target.close();
  });

  const status = (dataDir: string): Promise<StatusJson> => statusJson<StatusJson>(dataDir);

  it('names the full disk in status --json, recovers by itself once space is free, loses nothing that was run, and counts what a stop could not save', async () => {
    const disk: SmallDisk = mountSmallDisk(2048);
    try {
      const monitorId = await enrollDataDir(server, token, disk.dir);
      for (let i = 0; i < 3; i++)
        server.admin.assign(
          server.admin.createCheck({ name: `c${i}`, url: `${targetUrl}?c=${i}`, interval_sec: 1, orgId }).guid,
          monitorId,
        );
      const flags = ['--sync-interval', '0.3', '--upload-interval', '0.3'];
      let run = startRun(disk.dir, flags);
      await eventually(() => server.results(monitorId).length >= 3, 20_000, 'first results delivered');

      disk.fill();
      const full = await eventually(
        async () => {
          const s = await status(disk.dir);
          return s.store_problem !== null && s.unsaved_results >= 3 ? s : undefined;
        },
        20_000,
        'the full disk in status',
      );
      expect(full.store_problem).toMatch(
        new RegExp(`^the disk holding ${disk.dir} is full: \\d+ results are waiting in memory; free space$`),
      );
      expect(full.store_problem).not.toContain('rollback');
      const uploadsWhileFull = server.requests({ endpoint: 'results' }).length;
      // Two more rounds of the three 1 s checks (counted at the target, not waited for): about
      // six upload intervals of 0.3 s. No resend storm: at most a few upload attempts while
      // deletes cannot happen.
      const runsWhileFull = target.requests.length;
      await eventually(() => target.requests.length >= runsWhileFull + 6, 20_000, 'two more rounds of the checks');
      expect(server.requests({ endpoint: 'results' }).length - uploadsWhileFull).toBeLessThanOrEqual(10);

      disk.free();
      await eventually(async () => (await status(disk.dir)).store_problem === null, 20_000, 'recovered by itself');
      const first = await run.stop();
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('results are saved again');
      expect(first.stderr).not.toContain('cannot rollback');
      // Every run that reached the target was delivered (a run cut short by the stop has no result).
      const delivered = server.results(monitorId).length;
      const ran = target.requests.length;
      expect(delivered).toBeGreaterThanOrEqual(ran - 3);
      expect(delivered).toBeLessThanOrEqual(ran);
      expect((await status(disk.dir)).unsent_results).toBe(0);

      // Full again, and stopped while full: what could not be saved is counted in the log.
      run = startRun(disk.dir, flags);
      await eventually(() => server.results(monitorId).length > delivered, 20_000, 'running again');
      // Results refused for a while, so the outbox must grow into the full disk. Otherwise the
      // store can go on recycling the pages the first run's deleted results left free (and its
      // journal's), and meets the full disk only when a status reader holds the journal back: up to
      // ~20 s on a loaded machine.
      const refused = server.faults.respond(503, { endpoint: 'results' });
      disk.fill();
      const again = await eventually(
        async () => {
          const s = await status(disk.dir);
          return s.store_problem !== null && s.unsaved_results >= 2 ? s : undefined;
        },
        20_000,
        'full again',
      );
      // The agent cuts its journal back after a failed write, which gives some space back:
      // taken again, so that the stop finds the disk full.
      disk.fill();
      const second = await run.stop();
      refused.cancel();
      expect(second.code, second.stderr).toBe(0);
      const counted = /"msg":"(\d+) results could not be saved\b[^"]*"/.exec(second.stderr);
      if (counted !== null) expect(counted[0]).toMatch(/before stopping \(the disk holding [^"]* is full/);
      const lost = Number(counted?.[1] ?? 0);
      // Each result waiting at the stop is saved by its last commit or counted in the log as not
      // saved: none goes unseen. Which one is timing: a commit that fits in journal pages the
      // store already holds succeeds on a full disk (one fresh-clone CI run of two, issue 26 stop 45).
      const after = await status(disk.dir);
      const savedAtStop = after.unsent_results - again.unsent_results;
      expect(savedAtStop + lost).toBeGreaterThanOrEqual(again.unsaved_results);
      console.log(
        `full disk figures: first run ${delivered} delivered of ${ran} target hits (runs in flight at the stop have no result); stop while full: ${again.unsaved_results} waiting, ${savedAtStop} saved by the stop, ${lost} counted as not saved`,
      );
    } finally {
      disk.unmount();
    }
    // Two runs of the real command and many status calls: a budget for a loaded machine, not a
    // figure the test checks.
  }, 120_000);

  it('enroll on a full disk sends nothing and says why', async () => {
    const disk = mountSmallDisk(512);
    try {
      disk.fill();
      const before = server.requests({ endpoint: 'enroll' }).length;
      const result = await runCli(enrollArgs(server, token, disk.dir));
      expect(result.code).toBe(8);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(`the disk holding ${disk.dir} is full`);
      expect(result.stderr).toContain('Nothing was sent to the server');
      expect(server.requests({ endpoint: 'enroll' }).length).toBe(before);
    } finally {
      disk.unmount();
    }
  });
});
