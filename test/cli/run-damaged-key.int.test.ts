// Issue 11 §4: a key file damaged on disk. The real `run` process says the key is damaged
// (nothing is sent with it), keeps working otherwise, and stops on SIGTERM with exit 0.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { tempDataDir } from '../support/cli.ts';
import { enrollDataDir, startRun } from '../support/cli-agent.ts';

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
    expect(await enrollDataDir(server, token, dataDir)).toMatch(/^[0-9a-z]{12}$/);
    // Bytes that are not UTF-8 read back as replacement characters: not a header value. The key
    // file keeps the identity beside the key (key-vault.ts); only the key is damaged.
    const keyFile = join(dataDir, 'api-key');
    const stored = JSON.parse(await readFile(keyFile, 'utf8')) as Record<string, unknown>;
    const damaged = Buffer.from([0x75, 0x61, 0x6b, 0x5f, 0xff, 0xfe, 0x80, 0x41]).toString('utf8');
    await writeFile(keyFile, JSON.stringify({ ...stored, api_key: damaged }), { mode: 0o600 });
    server.clearRequests();

    const run = startRun(dataDir, [
      '--sync-interval',
      '0.1',
      '--upload-interval',
      '0.1',
      '--status-interval',
      '0.1',
      '--ping-interval',
      '0.1',
    ]);
    await eventually(() => run.log().includes('the stored API key is damaged'), 15_000, 'the damaged key reported');
    // The loops have started and met the damaged key (a positive signal, not a pause): a damaged
    // key must not wedge them, so the stop below is prompt and clean.
    await eventually(() => run.log().includes('ping failed: the stored key is damaged'), 15_000, 'the loops running');
    const result = await run.stop();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('graceful stop took too long');
    expect(server.requests().filter((r) => r.endpoint !== 'enroll')).toEqual([]);
  }, 30_000);
});
