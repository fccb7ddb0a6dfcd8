// Issue 11 §4: a key file damaged on disk. The real `run` process says the key is damaged
// (nothing is sent with it), keeps working otherwise, and stops on SIGTERM with exit 0.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { collect, lastLine, runCli, spawnCli, tempDataDir } from '../support/cli.ts';

describe('uptime-agent run with a damaged key file', () => {
  let server: ReferenceServer;
  let token: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token } = withOrg(server));
  });
  afterAll(() => server.close());

  it('reports the damaged key, sends nothing with it, and stops at once on SIGTERM', async () => {
    const dataDir = await tempDataDir();
    const enrolled = await runCli(['enroll', '--data-dir', dataDir, '--server', server.url, '--token', token,
      '--name', 'n', '--region', 'r', '--country', 'c', '--city', 'x']);
    expect(lastLine(enrolled.stdout)).toMatch(/^[0-9a-z]{12}$/);
    // Bytes that are not UTF-8 read back as replacement characters: not a header value. The key
    // file keeps the identity beside the key (key-vault.ts); only the key is damaged.
    const keyFile = join(dataDir, 'api-key');
    const stored = JSON.parse(await readFile(keyFile, 'utf8')) as Record<string, unknown>;
    const damaged = Buffer.from([0x75, 0x61, 0x6b, 0x5f, 0xff, 0xfe, 0x80, 0x41]).toString('utf8');
    await writeFile(keyFile, JSON.stringify({ ...stored, api_key: damaged }), { mode: 0o600 });
    server.clearRequests();

    const child = spawnCli(['run', '--data-dir', dataDir, '--sync-interval', '0.1', '--upload-interval', '0.1', '--status-interval', '0.1', '--ping-interval', '0.1']);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const done = collect(child);
    await eventually(() => stderr.includes('the stored API key is damaged'), 15_000, 'the damaged key reported');
    // Let the loops go round a few times: a damaged key must not wedge them.
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    expect(stderr).not.toContain('graceful stop took too long');
    expect(server.requests().filter((r) => r.endpoint !== 'enroll')).toEqual([]);
  }, 30_000);
});
