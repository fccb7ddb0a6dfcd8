// Odd files in the data folder, through the real command (issue 27 point 8): each is one clear
// line and exit 8 (the data folder or store is unusable), never a stack trace, a hang or a spin.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { runCli, tempDataDir } from '../support/cli.ts';
import { enrollArgs, enrollDataDir } from '../support/cli-agent.ts';

/** One line on stderr, no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0] ?? '';
}

describe.skipIf(process.platform !== 'linux')('odd files in the data folder', () => {
  let server: ReferenceServer;
  let token: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token } = withOrg(server));
  });
  afterAll(() => server.close());

  it('enroll --data-dir on an existing file: exit 8, "is a file", nothing sent', async () => {
    const file = join(await tempDataDir(), 'a-file');
    await writeFile(file, 'x');
    const before = server.requests().length;
    const result = await runCli(enrollArgs(server, token, file));
    expect(oneLine(result.stderr)).toContain('is a file');
    expect(result.code).toBe(8);
    expect(server.requests().length).toBe(before);
  });

  it('enroll --data-dir /proc/x: exit 8 at once (no mkdir spin)', async () => {
    const result = await runCli(enrollArgs(server, token, `/proc/uptime-agent-test-${process.pid}`));
    expect(oneLine(result.stderr)).toContain('cannot be used');
    expect(result.code).toBe(8);
  });

  it.each([
    ['words', 'this is not a key\n'],
    ['binary', Buffer.from([0, 1, 2, 255, 254])],
  ])(
    'a non-JSON api-key of %s: run and status say the key is damaged (exit 8), not "not enrolled"',
    async (_n, text) => {
      const dataDir = await tempDataDir();
      await enrollDataDir(server, token, dataDir);
      await writeFile(join(dataDir, 'api-key'), text, { mode: 0o600 });
      for (const command of [['run'], ['status', '--json']]) {
        const result = await runCli([...command, '--data-dir', dataDir]);
        expect(oneLine(result.stderr)).toContain('is damaged');
        expect(result.code).toBe(8);
      }
    },
  );

  it('an agent.lock that is a folder: a clear line (exit 8), not "pid -1"', async () => {
    const dataDir = await tempDataDir();
    await enrollDataDir(server, token, dataDir);
    await mkdir(join(dataDir, 'agent.lock'));
    const result = await runCli(['run', '--data-dir', dataDir]);
    const line = oneLine(result.stderr);
    expect(line).toContain('agent.lock is not a regular file');
    expect(line).not.toContain('pid -1');
    expect(result.code).toBe(8);
  });

  it('an agent.db that is a FIFO: run does not block in open(), it says so (exit 8)', async () => {
    const dataDir = await tempDataDir();
    await enrollDataDir(server, token, dataDir);
    execFileSync('rm', ['-f', join(dataDir, 'agent.db'), join(dataDir, 'agent.db-wal'), join(dataDir, 'agent.db-shm')]);
    execFileSync('mkfifo', ['-m', '600', join(dataDir, 'agent.db')]);
    const result = await runCli(['run', '--data-dir', dataDir]);
    expect(oneLine(result.stderr)).toContain('agent.db is not a regular file');
    expect(result.code).toBe(8);
  });
});
