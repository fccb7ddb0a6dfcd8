// Enroll at its edges: a monitor id of another shape than the reference server's (issue 24 §2),
// an oversized token (issue 27 §11), and a boolean network flag turned off again.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { collect, lastLine, runCli, spawnCli, tempDataDir } from '../support/cli.ts';

describe('uptime-agent enroll at its edges', () => {
  let server: ReferenceServer;
  let token: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token } = withOrg(server));
  });
  afterAll(() => server.close());

  const enrollArgs = (dataDir: string, ...extra: string[]) => [
    'enroll',
    '--data-dir',
    dataDir,
    '--server',
    server.url,
    ...['--name', 'office-pc', '--region', 'eu-west', '--country', 'DE', '--city', 'Berlin'],
    ...extra,
  ];

  it('keeps the key and a monitor id of another shape (edge-01), with a warning', async () => {
    const dataDir = await tempDataDir();
    // A server (or platform token) that issues chosen ids: the server's own agent takes any non-empty id.
    server.faults.respond(200, {
      endpoint: 'enroll',
      times: 1,
      contentType: 'application/json',
      body: JSON.stringify({ api_key: 'key-issued-once', monitor_id: 'edge-01' }),
    });
    const result = await runCli(enrollArgs(dataDir, '--token', token));
    expect(result.stderr).toContain('edge-01');
    expect(result.code).toBe(0);
    expect(lastLine(result.stdout)).toBe('edge-01');
    expect(await readFile(join(dataDir, 'api-key'), 'utf8')).toContain('key-issued-once');
    const status = await runCli(['status', '--json', '--data-dir', dataDir]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ monitor_id: 'edge-01', enrolled: true });
  });

  it('refuses a 10 MB token locally: exit 2, nothing sent', async () => {
    server.clearRequests();
    const child = spawnCli(enrollArgs(await tempDataDir(), '--token-stdin'), { stdin: 't'.repeat(10_000_000) });
    // The command stops reading once the token is too long and exits: the rest of the pipe is refused.
    child.stdin.on('error', () => undefined);
    const result = await collect(child);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('token');
    expect(server.requests()).toHaveLength(0);
  });

  it('turns a saved boolean network flag off again with its --no- form', async () => {
    const dataDir = await tempDataDir();
    const on = await runCli(enrollArgs(dataDir, '--token', token, '--checks-use-proxy'));
    expect(on.code).toBe(0);
    const saved = async () =>
      JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect((await saved()).checksUseProxy).toBe(true);
    const reclaimId = lastLine(on.stdout);
    server.admin.resetEnrollment(reclaimId);
    const off = await runCli(enrollArgs(dataDir, '--token', token, '--reclaim', reclaimId, '--no-checks-use-proxy'));
    expect(off.stderr).toBe('');
    expect(off.code).toBe(0);
    expect((await saved()).checksUseProxy).toBe(false);
  });
});
