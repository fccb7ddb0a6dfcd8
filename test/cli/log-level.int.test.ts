// A typo in UPTIME_AGENT_LOG_LEVEL costs one warning, never the command (pino throws on an
// unknown level, which used to end every `run` with a stack trace).
import { describe, expect, it } from 'vitest';
import { collect, spawnCli, tempDataDir } from '../support/cli.ts';

describe('UPTIME_AGENT_LOG_LEVEL', () => {
  it('an unknown level falls back to info with one warning', async () => {
    const child = spawnCli(['run', '--dashboard', '--data-dir', await tempDataDir()], {
      env: { UPTIME_AGENT_LOG_LEVEL: 'loud' },
    });
    const done = collect(child);
    let text = '';
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('agent running')) resolve();
      });
      child.on('close', () => resolve());
    });
    child.kill('SIGTERM');
    const { code, stderr } = await done;
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(0);
    const lines = stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.msg.includes('is not a log level'))).toHaveLength(1);
    expect(lines.some((line) => line.level === 30 && line.msg.startsWith('agent running'))).toBe(true);
  });
});
