// The real command's stderr: JSON lines when stderr is a pipe (services, CI), readable lines when
// it is a terminal (run under `script`, which gives the command a pseudo-terminal).
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliEntry, collect, spawnCli, tempDataDir } from '../support/cli.ts';

/** Resolves once `pattern` shows up in the text a stream has produced so far. */
function waitFor(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      if (!pattern.test(text)) return;
      stream.off('data', onData);
      resolve();
    };
    stream.on('data', onData);
  });
}

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

describe('uptime-agent run logs', () => {
  it('writes JSON lines when stderr is not a terminal', async () => {
    const child = spawnCli(['run', '--dashboard', '--data-dir', await tempDataDir()]);
    const done = collect(child);
    await waitFor(child.stderr, /agent running/);
    child.kill('SIGTERM');
    const { code, stderr } = await done;
    expect(code).toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const text of lines)
      expect(JSON.parse(text)).toMatchObject({ name: 'uptime-agent', level: expect.any(Number) as number });
  });

  it.skipIf(!hasScript)('writes readable lines on a terminal', async () => {
    const dataDir = await tempDataDir();
    // exec: the command itself gets the terminal's Ctrl-C, not a shell waiting for it.
    const command = `exec ${[process.execPath, cliEntry, 'run', '--dashboard', '--data-dir', dataDir].map((word) => `'${word}'`).join(' ')}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      stdio: 'pipe',
      env: { ...process.env, UPTIME_AGENT_LOG_LEVEL: 'info' },
    });
    const done = collect(child);
    await waitFor(child.stdout, /agent running/);
    child.stdin.write('\x03'); // Ctrl-C on the terminal
    const { code, stdout } = await done;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}agent running; stop with Ctrl-C or SIGTERM dataDir=/m);
    expect(stdout).toMatch(/INFO {2}stopping signal=SIGINT/);
    expect(stdout).not.toContain('{"level"');
  });
});
