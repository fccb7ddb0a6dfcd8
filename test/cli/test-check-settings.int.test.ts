// `uptime-agent test-check` as the running agent would run the check (issue 24 §12): under the
// data folder's settings (a strict egress policy), from stdin in every shape the design allows,
// and with --guid reading the store without migrating it.
import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDefaults } from '../../src-main/agent/defaults.ts';
import { storeFile } from '../../src-main/agent/base/data-dir.ts';
import { openAgentStore } from '../../src-main/agent/store/agent-store.ts';
import { applyDelta } from '../../src-main/agent/store/checks.ts';
import { runCli, tempDataDir } from '../support/cli.ts';
import { wireCheck } from '../support/wire-fixtures.ts';
import { startHttpTarget, type HttpTarget } from '../targets/index.ts';

let web: HttpTarget;
beforeAll(async () => {
  web = await startHttpTarget({ '/': { body: 'Welcome' }, '/down': { status: 503 } });
});
afterAll(() => web.close());

describe('uptime-agent test-check under the data folder settings', () => {
  it('a strict data folder refuses a loopback target, as run would; --egress-policy open overrides it', async () => {
    const dataDir = await tempDataDir();
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ egressPolicy: 'strict' }));
    const file = join(dataDir, 'one.json');
    await writeFile(file, JSON.stringify({ url: `${web.url}/`, match_string: 'Welcome' }));
    const strict = await runCli(['test-check', '--file', file, '--data-dir', dataDir]);
    expect(strict.stdout).toContain('egress policy');
    expect(strict.code).toBe(1);
    const open = await runCli(['test-check', '--file', file, '--data-dir', dataDir, '--egress-policy', 'open']);
    expect(open.code).toBe(0);
  });

  it.each([
    { shape: 'one check', input: (url: string) => ({ url: `${url}/` }), code: 0, runs: 1 },
    { shape: 'an array', input: (url: string) => [{ url: `${url}/` }, { url: `${url}/down` }], code: 1, runs: 2 },
    {
      shape: '{"checks": [...]}',
      input: (url: string) => ({
        checks: [
          { guid: 'a', url: `${url}/` },
          { guid: 'b', url: `${url}/` },
        ],
      }),
      code: 0,
      runs: 2,
    },
  ])('reads $shape from stdin (-) and runs every check in it', async ({ input, code, runs }) => {
    const dataDir = await tempDataDir();
    const result = await runCli(['test-check', '--file', '-', '--data-dir', dataDir], {
      stdin: JSON.stringify(input(web.url)),
    });
    expect(result.code).toBe(code);
    expect(result.stdout.match(/verdict: /g)).toHaveLength(runs);
  });

  it('a bad definition among good ones: the good ones run, exit 2', async () => {
    const result = await runCli(['test-check', '--file', '-', '--data-dir', await tempDataDir()], {
      stdin: JSON.stringify([{ url: `${web.url}/` }, { url: `${web.url}/`, match_mode: 'regex', match_string: 'x' }]),
    });
    expect(result.code).toBe(2);
    expect(result.stdout.match(/verdict: /g)).toHaveLength(1);
    expect(result.stderr).toContain('match_mode');
  });

  it('--guid opens the store read-only: an older store is not migrated, nothing in the folder changes', async () => {
    const dataDir = await tempDataDir();
    const store = openAgentStore(dataDir, agentDefaults);
    applyDelta(
      store.db,
      [wireCheck({ guid: 'home', url: `${web.url}/`, match_string: 'Welcome' })],
      '2026-11-21T10:00:00Z',
    );
    // As written by an older version: a migration would be due.
    store.db.exec('PRAGMA user_version = 1');
    store.close();
    const digest = async (): Promise<string> =>
      createHash('sha256')
        .update(await readFile(storeFile(dataDir)))
        .digest('hex');
    const before = { files: (await readdir(dataDir)).sort(), store: await digest() };
    const result = await runCli(['test-check', '--guid', 'home', '--data-dir', dataDir]);
    expect(result.code).toBe(0);
    expect({ files: (await readdir(dataDir)).sort(), store: await digest() }).toEqual(before);
  });
});
