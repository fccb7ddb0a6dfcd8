// Issue 27 point 4: a machine out of file descriptors is a local fault, not an internet outage.
// The real `uptime-agent run` process gets its RLIMIT_NOFILE lowered (prlimit) below every
// descriptor it holds but the standard three, so no new descriptor can be had whichever socket
// closes: every new socket fails with EMFILE, runs fail with the local reason, no outage is
// recorded, no run is kept as "skipped (offline)", and status --json names the problem (which
// live-state.json, written through the descriptor it keeps, still says).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/index.ts';
import { withOrg } from '../../reference-server/testing.ts';
import { eventually } from '../../support/agent-harness.ts';
import { enrollDataDir, startRun, statusJson } from '../../support/cli-agent.ts';
import { tempDataDir } from '../../support/temp-dir.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

interface StatusJson {
  local_problem: string | null;
  outages: unknown[];
  checks: { last_result?: { success: boolean; skipped?: boolean; error?: string } }[];
}

const canLimit = process.platform === 'linux' && existsSync('/usr/bin/prlimit');

describe.skipIf(!canLimit)('a machine out of file descriptors (prlimit)', () => {
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

  it('fails the runs as "this machine ran out of open files", starts no outage, and says so in status --json', async () => {
    const { token, orgId } = withOrg(server);
    const dataDir = await tempDataDir();
    const monitorId = await enrollDataDir(server, token, dataDir);
    for (let i = 0; i < 20; i++)
      server.admin.assign(
        server.admin.createCheck({ name: `c${i}`, url: `${target.url}/?c=${i}`, interval_sec: 1, orgId }).guid,
        monitorId,
      );
    const run = startRun(dataDir, ['--sync-interval', '0.5', '--upload-interval', '0.5']);
    try {
      await eventually(() => server.results(monitorId).length >= 20, 20_000, 'first results delivered');
      const pid = run.child.pid ?? 0;
      // A limit at the count held would leave it to chance: a socket closing frees a number below it.
      expect(readdirSync(`/proc/${pid}/fd`).length).toBeGreaterThan(3);
      execFileSync('prlimit', [`--pid=${pid}`, '--nofile=3:']);
      const limited = await eventually(
        async () => {
          const s = await statusJson<StatusJson>(dataDir);
          // Whichever comes first: the local problem, or (the fault this guards against) an outage.
          return s.local_problem !== null || s.outages.length > 0 ? s : undefined;
        },
        20_000,
        'the local problem in status --json',
      );
      expect(limited.outages).toEqual([]);
      expect(limited.local_problem).toMatch(
        /^This machine ran out of open files \(file descriptors\): \d+ check runs? could not be made/,
      );
      expect(run.log()).not.toContain('offline');

      execFileSync('prlimit', [`--pid=${pid}`, '--nofile=1024:']);
      await eventually(
        async () => (await statusJson<StatusJson>(dataDir)).local_problem === null,
        20_000,
        'the problem cleared once descriptors are free',
      );
      const sent = await eventually(
        () => {
          const failed = server.results(monitorId).filter((r) => !r.success);
          return failed.length > 0 ? failed : undefined;
        },
        20_000,
        'the failed runs uploaded',
      );
      expect(
        sent.every(
          (r) => r.error === 'this machine ran out of open files (file descriptors); the target was not checked',
        ),
      ).toBe(true);
      const final = await statusJson<StatusJson>(dataDir);
      expect(final.outages).toEqual([]);
      expect(final.checks.some((c) => c.last_result?.skipped === true)).toBe(false);
    } finally {
      const stopped = await run.stop();
      expect(stopped.code, stopped.stderr).toBe(0);
    }
  }, 90_000);
});
