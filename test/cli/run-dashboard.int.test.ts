// `uptime-agent run --dashboard` as a user starts it: without enrollment it still runs (to
// enroll from the page), prints its URL, and stops cleanly; its flags are checked.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tokenHeader } from '../../src-main/ipc/web-protocol.ts';
import { collect, runCli, spawnCli, tempDataDir } from '../support/cli.ts';

function firstLine(child: ReturnType<typeof spawnCli>, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const found = pattern.exec(out)?.[1];
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
}

describe('uptime-agent run --dashboard', () => {
  it('runs without enrollment, serves the contract at the printed URL, and exits 0 on SIGTERM', async () => {
    const child = spawnCli(['run', '--dashboard', '--data-dir', await tempDataDir()]);
    const done = collect(child);
    const url = new URL(await firstLine(child, /^dashboard: (\S+)$/m));
    expect(url.hostname).toBe('127.0.0.1');
    const answer = await fetch(new URL('/api/ipc/agent:snapshot', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [tokenHeader]: url.searchParams.get('token') ?? '' },
      body: '{}',
    });
    expect(await answer.json()).toMatchObject({ ok: true, value: { enrolled: false } });
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    // The token is printed once, for the user; it never goes to the log.
    expect(result.stderr).not.toContain(url.searchParams.get('token'));
  });

  it('exits 2 when --dashboard-port comes without --dashboard', async () => {
    const result = await runCli(['run', '--dashboard-port', '8080', '--data-dir', await tempDataDir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--dashboard-port needs --dashboard');
  });

  it('exits 2 on a port that is not a port', async () => {
    const result = await runCli(['run', '--dashboard', '--dashboard-port', '70000', '--data-dir', await tempDataDir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--dashboard-port');
  });

  it('exits 1 with what to do when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli([
        'run',
        '--dashboard',
        '--dashboard-port',
        String(port),
        '--data-dir',
        await tempDataDir(),
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('choose another --dashboard-port');
    } finally {
      blocker.close();
    }
  });
});
