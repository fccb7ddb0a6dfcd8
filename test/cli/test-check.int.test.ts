// `uptime-agent test-check` as a real process against loopback targets: the explanation on
// stdout, exit 0 pass / 1 fail / 2 bad definition, nothing enrolled and nothing uploaded.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { runCli, tempDataDir } from '../support/cli.ts';
import { enrollDataDir, startRun, statusJson } from '../support/cli-agent.ts';
import { closedPort, makeCa, makeLeaf, startHttpTarget, type HttpTarget, type KeyPair } from '../targets/index.ts';

let web: HttpTarget;
let secure: HttpTarget;
let ca: KeyPair;
let dir: string;
beforeAll(async () => {
  ca = await makeCa('Office CA');
  web = await startHttpTarget({ '/': { body: 'Welcome' }, '/down': { status: 503 } });
  secure = await startHttpTarget({ '/': { body: 'Welcome' } }, { tls: await makeLeaf({ ca }) });
  dir = await tempDataDir();
});
afterAll(async () => {
  await Promise.all([web.close(), secure.close()]);
});

const definitionsFile = async (name: string, checks: unknown[]): Promise<string> => {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify({ checks }));
  return file;
};

describe('uptime-agent test-check --file', () => {
  it('a passing check: exit 0 and the explanation', async () => {
    const file = await definitionsFile('pass.json', [{ guid: 'home', url: `${web.url}/`, match_string: 'Welcome' }]);
    const result = await runCli(['test-check', '--file', file, '--data-dir', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`PASS  ${web.url}/`);
    expect(result.stdout).toContain('verdict: pass — every rule passed (status below 400; contains "Welcome")');
    expect(result.stdout).toMatch(/timings: connect \d+ ms · first byte \d+ ms · total \d+ ms/);
  });

  it('a failing check: exit 1 and the deciding rule', async () => {
    const file = await definitionsFile('fail.json', [{ guid: 'down', url: `${web.url}/down` }]);
    const result = await runCli(['test-check', '--file', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('verdict: fail — decided by the status rule: status 503, expected less than 400');
  });

  it('a refused connection is a failure, not a bad definition', async () => {
    const file = await definitionsFile('refused.json', [
      { guid: 'gone', url: `tcp://127.0.0.1:${await closedPort()}` },
    ]);
    const result = await runCli(['test-check', '--file', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('verdict: fail — decided by the connection: connection refused');
  });

  it('--checks-ca trusts a private CA; without it the certificate is refused', async () => {
    const file = await definitionsFile('secure.json', [{ guid: 's', url: `${secure.url}/` }]);
    const caFile = join(dir, 'office-ca.pem');
    await writeFile(caFile, ca.cert);
    const trusted = await runCli(['test-check', '--file', file, '--checks-ca', caFile]);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/certificate: CN=localhost; issuer CN=Office CA; expires in \d+ days/);
    const refused = await runCli(['test-check', '--file', file]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('decided by the certificate: TLS certificate not trusted (unknown issuer)');
  });

  it('--checks-ca adds to what Node already trusts: a CA from NODE_EXTRA_CA_CERTS stays trusted', async () => {
    const extraCa = await makeCa('Extra CA');
    const other = await startHttpTarget({ '/': { body: 'Welcome' } }, { tls: await makeLeaf({ ca: extraCa }) });
    try {
      const file = await definitionsFile('both-cas.json', [
        { guid: 'office', url: `${secure.url}/` },
        { guid: 'extra', url: `${other.url}/` },
      ]);
      const officeFile = join(dir, 'office-ca-only.pem');
      const extraFile = join(dir, 'extra-ca.pem');
      await writeFile(officeFile, ca.cert);
      await writeFile(extraFile, extraCa.cert);
      const result = await runCli(['test-check', '--file', file, '--checks-ca', officeFile], {
        env: { NODE_EXTRA_CA_CERTS: extraFile },
      });
      expect(result.stdout).toMatch(/certificate: CN=localhost; issuer CN=Office CA/);
      expect(result.stdout).toMatch(/certificate: CN=localhost; issuer CN=Extra CA/);
      expect(result.stdout).not.toContain('not trusted');
      expect(result.code).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('--egress-policy strict refuses a loopback target', async () => {
    const file = await definitionsFile('strict.json', [{ guid: 'home', url: `${web.url}/` }]);
    const result = await runCli(['test-check', '--file', file, '--egress-policy', 'strict']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'decided by the egress policy: blocked by egress policy: 127.0.0.1 is a loopback address',
    );
  });

  it('several checks in the file: every one runs, or --guid picks one', async () => {
    const file = await definitionsFile('two.json', [
      { guid: 'a', url: `${web.url}/` },
      { guid: 'b', url: `${web.url}/down` },
    ]);
    const both = await runCli(['test-check', '--file', file]);
    expect(both.code).toBe(1);
    expect(both.stdout).toContain('— check a');
    expect(both.stdout).toContain('— check b');
    expect((await runCli(['test-check', '--file', file, '--guid', 'a'])).code).toBe(0);
    expect((await runCli(['test-check', '--file', file, '--guid', 'b'])).code).toBe(1);
  });

  it.each([
    {
      name: 'unknown match_mode',
      checks: [{ guid: 'x', url: 'http://127.0.0.1:1/', match_string: 'a', match_mode: 'regex' }],
      stderr: /match_mode/,
    },
    { name: 'not JSON', checks: undefined, stderr: /test-check: .*bad\.json/ },
    {
      name: 'unsupported scheme',
      checks: [{ guid: 'x', url: 'ftp://127.0.0.1/' }],
      stderr: /check "x" \(entry 1\): url/,
    },
    { name: 'tcp without a port', checks: [{ guid: 'x', url: 'tcp://127.0.0.1' }], output: /port/ },
  ])('a bad definition exits 2: $name', async ({ checks, stderr, output }) => {
    const file = join(dir, 'bad.json');
    await writeFile(file, checks === undefined ? '{ not json' : JSON.stringify({ checks }));
    const result = await runCli(['test-check', '--file', file]);
    expect(result.code).toBe(2);
    if (stderr !== undefined) expect(result.stderr).toMatch(stderr);
    if (output !== undefined) expect(`${result.stdout}${result.stderr}`).toMatch(output);
  });

  it.each([
    { args: [], message: 'say which check to run with --guid G or --file F' },
    { args: ['--file', '/nonexistent/defs.json'], message: 'cannot read /nonexistent/defs.json' },
    { args: ['--file', 'x.json', '--egress-policy', 'closed'], message: '--egress-policy: must be open or strict' },
  ])('usage problems exit 2: $message', async ({ args, message }) => {
    const result = await runCli(['test-check', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe('uptime-agent test-check --guid', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('runs a synced check and a private one from the store, uploading nothing', async () => {
    const { orgId, token } = withOrg(server);
    const dataDir = await tempDataDir();
    const monitorId = await enrollDataDir(server, token, dataDir);
    const synced = server.admin.createCheck({ name: 'Home', url: `${web.url}/`, match_string: 'Welcome', orgId });
    const secret = server.admin.createCheck({ name: 'Private', url: '', orgId });
    server.admin.assign(synced.guid, monitorId);
    server.admin.assign(secret.guid, monitorId);
    // One short run syncs the checks into the store.
    const privateFile = await definitionsFile('private.json', [{ guid: secret.guid, url: `${web.url}/down` }]);
    const run = startRun(dataDir, ['--private-checks', privateFile, '--sync-interval', '0.2']);
    await eventually(
      async () => {
        const guids = (await statusJson<{ checks: { guid: string }[] }>(dataDir)).checks.map((c) => c.guid);
        return guids.includes(synced.guid) && guids.includes(secret.guid);
      },
      20_000,
      'both checks in the store',
    );
    await run.stop();
    server.clearRequests();

    const pass = await runCli(['test-check', '--guid', synced.guid, '--data-dir', dataDir]);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toContain('verdict: pass — every rule passed (status below 400; contains "Welcome")');
    const needsFile = await runCli(['test-check', '--guid', secret.guid, '--data-dir', dataDir]);
    expect(needsFile.code).toBe(2);
    expect(needsFile.stderr).toContain('give its file with --private-checks FILE');
    const fail = await runCli([
      'test-check',
      '--guid',
      secret.guid,
      '--data-dir',
      dataDir,
      '--private-checks',
      privateFile,
    ]);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain('status 503, expected less than 400');
    const unknown = await runCli(['test-check', '--guid', 'nope', '--data-dir', dataDir]);
    expect(unknown.code).toBe(2);
    expect(server.requests()).toHaveLength(0);
  });
});
