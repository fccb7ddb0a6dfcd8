import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { runCli, tempDataDir } from '../support/cli.ts';
import { enrollDataDir, startRun, statusJson } from '../support/cli-agent.ts';
import { startHttpTarget, type HttpTarget } from '../targets/index.ts';

interface StatusJson {
  private_definitions: {
    file: string | null;
    error: string | null;
    defined: string[];
    missing: string[];
    problems: { guid: string | null; field: string | null; message: string }[];
  };
  enrolled: boolean;
  sync_cursor: string | null;
  unsent_results: number;
  checks: {
    guid: string;
    name: string;
    enabled: boolean;
    private_definition: boolean;
    runnable: boolean;
    last_result?: { success: boolean };
  }[];
}

describe('uptime-agent run', () => {
  let server: ReferenceServer;
  let token: string;
  let orgId: string;
  let target: HttpTarget;
  let targetUrl: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token, orgId } = withOrg(server));
    target = await startHttpTarget({ '/health': { body: 'all good' } });
    targetUrl = `${target.url}/health`;
  });
  afterAll(async () => {
    await server.close();
    await target.close();
  });

  const status = (dataDir: string): Promise<StatusJson> => statusJson<StatusJson>(dataDir);

  it('exits 2 with a clear message when not enrolled', async () => {
    const result = await runCli(['run', '--data-dir', await tempDataDir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not enrolled');
  });

  it.each([
    { name: 'a non-number interval', args: ['--sync-interval', 'soon'], says: '--sync-interval' },
    { name: 'a zero interval', args: ['--ping-interval', '0'], says: 'at least 0.05' },
  ])('exits 2 on $name', async ({ args, says }) => {
    const result = await runCli(['run', '--data-dir', await tempDataDir(), ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(says);
  });

  it('syncs, runs the checks, keeps the store current, and stops on SIGTERM with exit 0', async () => {
    const dataDir = await tempDataDir();
    const monitorId = await enrollDataDir(server, token, dataDir);
    const check = server.admin.createCheck({ name: 'Health', url: targetUrl, interval_sec: 1, orgId });
    server.admin.assign(check.guid, monitorId);
    const secret = server.admin.createCheck({ name: 'Secret', url: 'https://intranet.example/', orgId });
    server.admin.assign(secret.guid, monitorId);
    server.admin.makePrivateDefinition(secret.guid);

    const run = startRun(dataDir, ['--sync-interval', '0.2', '--upload-interval', '60']);
    const synced = await eventually(
      async () => {
        const s = await status(dataDir);
        return s.checks.length === 2 && s.checks.some((c) => c.last_result !== undefined) ? s : undefined;
      },
      20_000,
      'checks synced and a result stored',
    );
    expect(synced.sync_cursor).not.toBeNull();
    expect(synced.checks.find((c) => c.guid === check.guid)).toMatchObject({
      runnable: true,
      private_definition: false,
      last_result: { success: true },
    });
    expect(synced.checks.find((c) => c.guid === secret.guid)).toMatchObject({
      runnable: false,
      private_definition: true,
    });
    expect(target.requests.length).toBeGreaterThan(0);

    // A change on the server reaches the running agent.
    server.admin.updateCheck(check.guid, { enabled: false });
    await eventually(
      async () => (await status(dataDir)).checks.find((c) => c.guid === check.guid)?.enabled === false,
      10_000,
      'disable',
    );

    const result = await run.stop();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain(token);
  });

  it('runs a private check from --private-checks and reports file problems by guid and field in status', async () => {
    const dataDir = await tempDataDir();
    const monitorId = await enrollDataDir(server, token, dataDir);
    const secret = server.admin.createCheck({
      name: 'Secret',
      url: 'https://intranet.example/',
      interval_sec: 1,
      orgId,
    });
    server.admin.assign(secret.guid, monitorId);
    server.admin.makePrivateDefinition(secret.guid);
    const file = join(dataDir, 'private.json');
    const tooManyHeaders = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, `v${i}`]));
    await writeFile(
      file,
      JSON.stringify({
        checks: [
          { guid: secret.guid, url: targetUrl, match_string: 'all good' },
          { guid: 'bad-url', url: 'gopher://x' },
          { guid: 'many-headers', url: targetUrl, headers: tooManyHeaders },
        ],
      }),
    );
    const run = startRun(dataDir, ['--private-checks', file, '--sync-interval', '0.2']);
    const s = await eventually(
      async () => {
        const st = await status(dataDir);
        return st.checks.find((c) => c.guid === secret.guid)?.last_result !== undefined ? st : undefined;
      },
      20_000,
      'the private check ran',
    );
    expect(s.checks.find((c) => c.guid === secret.guid)).toMatchObject({
      runnable: true,
      private_definition: true,
      last_result: { success: true },
    });
    expect(s.private_definitions.defined).toEqual([secret.guid]);
    const problems = s.private_definitions.problems;
    expect(problems.find((p) => p.guid === 'bad-url')?.field).toBe('url');
    expect(problems.find((p) => p.guid === 'many-headers')?.field).toBe('headers');
    expect(JSON.stringify(problems)).not.toContain('v10');
    const text = await runCli(['status', '--data-dir', dataDir]);
    expect(text.stdout).toContain('private definitions:');
    // The server never saw the local target.
    expect(
      server
        .requests()
        .map((r) => r.body)
        .join('\n'),
    ).not.toContain(new URL(targetUrl).host);
    const stopped = await run.stop();
    expect(stopped.code, stopped.stderr).toBe(0);
  });
});
