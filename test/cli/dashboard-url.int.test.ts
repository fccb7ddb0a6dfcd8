// A dashboard link that keeps working: `run --dashboard` writes its URL into the data folder
// (readable by the user only), `uptime-agent dashboard-url` prints it while the dashboard runs,
// and a restarted agent takes the same port and token again, or another port when it is taken.
import { statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, runCli, spawnCli, tempDataDir } from '../support/cli.ts';

async function startRun(dataDir: string): Promise<{ url: string; stop: () => Promise<number | null> }> {
  const child = spawnCli(['run', '--dashboard', '--data-dir', dataDir]);
  const done = collect(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const found = /^dashboard: (\S+)$/m.exec(out)?.[1];
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      return (await done).code;
    },
  };
}

describe('uptime-agent dashboard-url', () => {
  it('prints the running dashboard’s URL; a restart keeps the port and token; a taken port moves it', async () => {
    const dataDir = await tempDataDir();
    const first = await startRun(dataDir);
    const printed = await runCli(['dashboard-url', '--data-dir', dataDir]);
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(first.url);
    if (process.platform !== 'win32') expect(statSync(join(dataDir, 'dashboard-url')).mode & 0o777).toBe(0o600);
    expect(await first.stop()).toBe(0);

    const none = await runCli(['dashboard-url', '--data-dir', dataDir]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no dashboard is running');

    // Restarted: the same address and token, so a tab left open reconnects by itself.
    const second = await startRun(dataDir);
    expect(second.url).toBe(first.url);
    expect(await second.stop()).toBe(0);

    // The port is taken meanwhile: another one, and dashboard-url says which.
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(Number(new URL(first.url).port), '127.0.0.1', resolve));
    try {
      const third = await startRun(dataDir);
      expect(new URL(third.url).port).not.toBe(new URL(first.url).port);
      expect((await runCli(['dashboard-url', '--data-dir', dataDir])).stdout.trim()).toBe(third.url);
      expect(await third.stop()).toBe(0);
    } finally {
      blocker.close();
    }
  });
});
