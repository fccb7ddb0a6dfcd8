import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { lastLine, runCli, tempDataDir } from '../support/cli.ts';

describe('uptime-agent enroll against the reference server', () => {
  let server: ReferenceServer;
  let token: string;
  let orgId: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token, orgId } = withOrg(server));
  });
  afterAll(() => server.close());

  const place = ['--name', 'office-pc', '--region', 'eu-west', '--country', 'DE', '--city', 'Berlin'];
  const enrollArgs = (dataDir: string, ...extra: string[]) => [
    'enroll',
    '--data-dir',
    dataDir,
    '--server',
    server.url,
    ...place,
    ...extra,
  ];

  it('enrolls: exit 0, the monitor id on the last stdout line, the key in a 0600 file, never echoed', async () => {
    const dataDir = await tempDataDir();
    const result = await runCli(enrollArgs(dataDir, '--token', token));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const monitorId = lastLine(result.stdout);
    expect(monitorId).toMatch(/^[0-9a-hjkmnp-tv-z]{12}$/);
    expect(server.monitor(monitorId)).toMatchObject({ name: 'office-pc', orgId });
    expect(((await stat(join(dataDir, 'api-key'))).mode & 0o777).toString(8)).toBe('600');
    expect(result.stdout + result.stderr).not.toContain(token);
    const status = await runCli(['status', '--json', '--data-dir', dataDir]);
    expect(JSON.parse(status.stdout)).toMatchObject({
      enrolled: true,
      monitor_id: monitorId,
      server: server.url,
      sync_cursor: null,
    });
  });

  it.each([
    {
      name: 'env UPTIME_AGENT_ENROLL_TOKEN',
      args: [] as string[],
      env: (t: string) => ({ UPTIME_AGENT_ENROLL_TOKEN: t }),
      stdin: undefined,
    },
    {
      name: '--token-stdin, pasted with white space around it',
      args: ['--token-stdin'],
      env: () => ({}),
      stdin: (t: string) => `  ${t}\n`,
    },
    { name: '--token with white space around it', args: ['--token'], env: () => ({}), stdin: undefined, padded: true },
  ])('takes the token from $name', async ({ args, env, stdin, padded }) => {
    const dataDir = await tempDataDir();
    const tokenArgs = padded === true ? [...args, ` ${token}\t`] : args;
    const result = await runCli(enrollArgs(dataDir, ...tokenArgs), {
      env: env(token),
      ...(stdin === undefined ? {} : { stdin: stdin(token) }),
    });
    expect(result.code).toBe(0);
    const auth = server.requests({ endpoint: 'enroll' }).at(-1)?.headers.authorization;
    expect(auth).toBe(`Bearer ${token}`);
  });

  it.each([
    { name: 'no token', args: ['--server', 'http://127.0.0.1:9', ...place], says: 'enrollment token is required' },
    { name: 'no server', args: ['--token', 't', ...place], says: '--server is required' },
    {
      name: 'no city',
      args: ['--server', 'http://127.0.0.1:9', '--token', 't', '--name', 'n', '--region', 'r', '--country', 'c'],
      says: 'city is required',
    },
    {
      name: 'a malformed server URL',
      args: ['--server', 'not a url', '--token', 't', ...place],
      says: 'not a valid server URL',
    },
    {
      name: 'plain http to another host',
      args: ['--server', 'http://uptime.example.com', '--token', 't', ...place],
      says: '--allow-insecure-http',
    },
    {
      name: 'a bad reclaim id',
      args: ['--server', 'http://127.0.0.1:9', '--token', 't', ...place, '--reclaim', 'edge 01'],
      says: 'printable',
    },
    { name: 'an unknown flag', args: ['--frobnicate'], says: 'frobnicate' },
    {
      name: 'two token sources',
      args: ['--server', 'http://127.0.0.1:9', '--token', 't', '--token-stdin', ...place],
      says: 'not both',
    },
  ])('refuses $name with exit 2 and sends nothing', async ({ args, says }) => {
    const before = server.requests().length;
    const result = await runCli(['enroll', '--data-dir', await tempDataDir(), ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(says);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(server.requests()).toHaveLength(before);
  });

  it('exit 3 when the token is refused (401), naming what to do', async () => {
    const result = await runCli(enrollArgs(await tempDataDir(), '--token', 'no-such-token'));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('unknown, revoked or expired');
    expect(result.stderr).not.toContain('no-such-token');
  });

  it('exit 4 when the monitor to reclaim does not exist (404)', async () => {
    const result = await runCli(enrollArgs(await tempDataDir(), '--token', token, '--reclaim', '0123456789ab'));
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('Enroll as a new monitor');
  });

  it('exit 5 when the monitor is still enrolled (409); after a reset on the server the reclaim succeeds', async () => {
    const dataDir = await tempDataDir();
    const first = await runCli(enrollArgs(dataDir, '--token', token));
    const monitorId = lastLine(first.stdout);
    const conflict = await runCli(enrollArgs(dataDir, '--token', token, '--reclaim', monitorId));
    expect(conflict.code).toBe(5);
    expect(conflict.stderr).toContain('Reset its enrollment');
    server.admin.resetEnrollment(monitorId);
    const reclaimed = await runCli(enrollArgs(dataDir, '--token', token, '--reclaim', monitorId.toUpperCase()));
    expect(reclaimed.code).toBe(0);
    expect(lastLine(reclaimed.stdout)).toBe(monitorId);
    expect(server.requests({ endpoint: 'enroll' }).at(-1)?.body).toContain(`"id":"${monitorId}"`);
  });

  it('exit 6 when the server refuses the request (400), with its reason', async () => {
    const fault = server.faults.respond(400, { endpoint: 'enroll', times: 1, body: 'name: too long' });
    const result = await runCli(enrollArgs(await tempDataDir(), '--token', token));
    expect(fault.hits).toBe(1);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('name: too long');
  });

  it.each([
    { name: 'nothing listens', fault: undefined },
    { name: 'the server answers 500', fault: 500 },
  ])('exit 7 when $name', async ({ fault }) => {
    const dataDir = await tempDataDir();
    const args =
      fault === undefined
        ? ['enroll', '--data-dir', dataDir, '--server', 'http://127.0.0.1:9', ...place, '--token', token]
        : enrollArgs(dataDir, '--token', token);
    if (fault !== undefined) server.faults.respond(fault, { endpoint: 'enroll', times: 1 });
    const result = await runCli(args);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/could not enroll/);
  });

  it('exit 7 when the answer is not what the API promises', async () => {
    server.faults.schemaViolation({ endpoint: 'enroll', times: 1 });
    const result = await runCli(enrollArgs(await tempDataDir(), '--token', token));
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('unexpected body');
  });
});
