// The command's first line as the kernel hands it to env: whole (Linux 5.1 and later read 256
// bytes) and cut at 127 bytes (earlier kernels, which drop the rest and the trailing spaces).
// Either way `env -S` must start node with whole flags it accepts: a misspelt or cut flag stops
// node before the agent runs. Real processes: /usr/bin/env, then the node running the tests.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { v8HelperThreadPrefix } from '../../bench/agent/proc-stats.ts';
import { commandFirstLine } from '../support/cli.ts';
import { tempDataDir } from '../support/temp-dir.ts';

const firstLine = commandFirstLine();

interface Started {
  execArgv: string[];
  arenas: string | undefined;
  /** V8's helper threads (GC and compile work) that node started, counted by the name its platform gives them. */
  v8Helpers: number;
}

/** Run in the started node: counts its own threads by the names Linux keeps for them. */
const report = `
import { readdirSync, readFileSync } from 'node:fs';
const v8Helpers = readdirSync('/proc/self/task').filter((tid) =>
  readFileSync(\`/proc/self/task/\${tid}/comm\`, 'utf8').startsWith(${JSON.stringify(v8HelperThreadPrefix)}),
).length;
console.log(JSON.stringify({ execArgv: process.execArgv, arenas: process.env.MALLOC_ARENA_MAX, v8Helpers }));
`;

/** What a kernel reading `bytes` of the line execs: the interpreter, and the rest as one argument. */
async function startAs(bytes: number): Promise<Started> {
  const [interpreter = '', ...rest] = firstLine.slice(2, bytes).trimEnd().split(' ');
  const script = join(await tempDataDir(), 'report.mjs');
  writeFileSync(script, report);
  const child = spawnSync(interpreter, [rest.join(' '), script], {
    encoding: 'utf8',
    // env finds `node` on the PATH: the one running these tests first.
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
  });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout) as Started;
}

describe("the command's first line, as the kernel hands it over", () => {
  it('starts node with every flag on it', async () => {
    const started = await startAs(firstLine.length);
    expect(started.arenas).toBe('1');
    expect(started.execArgv).toContain('--no-memory-reducer');
    expect(started.execArgv).toContain('--no-concurrent-recompilation');
    expect(started.execArgv).toContain('--liftoff-only');
    // Node starts four whatever the machine; on two cores they queued for a core beside the
    // agent's own threads near its capacity (src-main/cli/main.ts).
    expect(started.v8Helpers).toBe(2);
  });

  it('starts node with the whole flags of its first 127 bytes on a kernel before 5.1', async () => {
    const started = await startAs(127);
    expect(started.arenas).toBe('1');
    expect(started.execArgv.some((flag) => flag.startsWith('--max-old-space-size='))).toBe(true);
    expect(started.execArgv).toContain('--no-concurrent-recompilation');
    expect(started.execArgv).not.toContain('--no-memory-reducer');
    expect(started.execArgv).not.toContain('--liftoff-only');
    expect(started.execArgv.some((flag) => flag.startsWith('--v8-pool-size='))).toBe(false);
  });
});
