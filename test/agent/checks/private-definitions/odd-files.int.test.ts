// A private-definitions path that is not a regular file (issue 27 point 8): /dev/zero used to
// grow the agent to 3 GB and wedge the loader, a FIFO blocked the read for ever. Now either is
// one clear problem, and a valid file written back in its place revives the private checks.
import { execFileSync } from 'node:child_process';
import { rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src-main/agent/base/log.ts';
import {
  openPrivateDefinitions,
  type PrivateDefinitionsSource,
  type PrivateDefinitionsState,
} from '../../../../src-main/agent/checks/private-definitions/index.ts';
import { eventually } from '../../../support/agent-harness.ts';
import { runCli } from '../../../support/cli.ts';
import { tempDir } from '../../../support/temp-dir.ts';

const valid = JSON.stringify({ checks: [{ guid: 'g1', url: 'http://127.0.0.1:9/' }] });

const odd: { name: string; make: (file: string) => Promise<void> | void }[] = [
  { name: '/dev/zero', make: (file) => symlink('/dev/zero', file) },
  { name: 'a FIFO', make: (file) => void execFileSync('mkfifo', [file]) },
];

describe.skipIf(process.platform === 'win32')('a private-definitions path that is not a regular file', () => {
  const sources: PrivateDefinitionsSource[] = [];
  afterEach(() => {
    for (const source of sources.splice(0)) source.close();
  });

  it.each(odd)('$name: one clear problem, and a valid file written back revives the checks', async ({ make }) => {
    const dir = (await tempDir('odd-defs-')).path;
    const file = join(dir, 'private.json');
    await make(file);
    let latest: PrivateDefinitionsState | undefined;
    const source = await openPrivateDefinitions({
      file,
      log: silentLogger,
      onChange: (state) => (latest = state),
      debounceMs: 20,
      pollMs: 100,
    });
    sources.push(source);
    expect(source.current().fileError).toContain('is not a regular file');
    expect(source.current().entries.size).toBe(0);
    expect(process.memoryUsage().rss).toBeLessThan(1024 * 1024 * 1024);
    // Written back the way editors save: a new file renamed over the odd one.
    await writeFile(join(dir, 'private.json.tmp'), valid);
    await rm(file);
    await rename(join(dir, 'private.json.tmp'), file);
    await eventually(() => latest?.entries.has('g1'), 10_000, 'the private checks back');
    expect(latest?.fileError).toBeUndefined();
  });

  it.each(odd)('test-check --file on $name: one line, exit 2, no hang', async ({ make }) => {
    const dir = (await tempDir('odd-defs-')).path;
    const file = join(dir, 'private.json');
    await make(file);
    const result = await runCli(['test-check', '--file', file, '--data-dir', join(dir, 'data')]);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('is not a regular file');
    expect(result.code).toBe(2);
  });
});
