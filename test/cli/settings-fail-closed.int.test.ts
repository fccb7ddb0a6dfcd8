// A damaged settings.json fails closed, through the real command (issue 27 point 2): with
// `egressPolicy: "strict"` and one unrelated bad field, or a truncated file, or a FIFO in its
// place, `uptime-agent run` still refuses loopback targets, and `status --json` says why.
import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { tempDataDir } from '../support/cli.ts';
import { enrollDataDir, startRun, statusJson } from '../support/cli-agent.ts';
import { eventually } from '../support/agent-harness.ts';
import { startHttpTarget, type HttpTarget } from '../targets/index.ts';

describe('a damaged settings.json keeps the strict egress policy', () => {
  let server: ReferenceServer;
  let orgId: string;
  let token: string;
  let target: HttpTarget;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ orgId, token } = withOrg(server));
    target = await startHttpTarget({ '/inside': { status: 200, body: 'reached' } });
  });
  afterAll(async () => {
    await target.close();
    await server.close();
  });

  const cases = [
    {
      name: 'one unrelated field of the wrong type',
      write: (file: string) => writeFile(file, '{ "egressPolicy": "strict", "notifications": "yes" }'),
      says: 'notifications',
      strictBecause: false,
    },
    {
      name: 'a truncated file',
      write: (file: string) => writeFile(file, '{ "egressPolicy": "strict", "notifica'),
      says: 'cannot be read',
      strictBecause: true,
    },
    {
      name: 'a FIFO in its place (run must not block reading it)',
      write: async (file: string) => {
        await rm(file, { force: true });
        execFileSync('mkfifo', [file]);
      },
      says: 'not a regular file',
      strictBecause: true,
    },
  ];

  it.each(cases)('$name: loopback targets are still refused', async ({ write, says, strictBecause }) => {
    const dataDir = await tempDataDir();
    const monitorId = await enrollDataDir(server, token, dataDir, '--egress-policy', 'strict');
    const check = server.admin.createCheck({ name: 'inside', url: `${target.url}/inside`, interval_sec: 1, orgId });
    server.admin.assign(check.guid, monitorId);
    await write(join(dataDir, 'settings.json'));
    const before = target.requests.length;
    const run = startRun(dataDir, ['--sync-interval', '0.2', '--upload-interval', '0.2']);
    const [refused] = await eventually(
      () => {
        const results = server.results(monitorId).filter((r) => r.checkGuid === check.guid);
        return results.length > 0 ? results : undefined;
      },
      15_000,
      'a result of the loopback check',
    );
    const status = await statusJson<{ egress_policy: string; settings_problem?: string }>(dataDir);
    const ended = await run.stop();
    expect(ended.code).toBe(0);
    expect(refused).toMatchObject({ success: false });
    expect(refused?.error).toMatch(/egress policy/);
    expect(target.requests.length).toBe(before);
    expect(status.egress_policy).toBe('strict');
    expect(status.settings_problem).toContain(says);
    // Only a lost policy is made strict by the fallback; here it was readable, and strict.
    if (strictBecause) expect(status.settings_problem).toContain('strict egress policy');
    expect(run.log()).toContain(says);
  });
});
