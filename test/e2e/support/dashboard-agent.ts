// A real headless agent with its web dashboard, as a child process: `uptime-agent run
// --dashboard` with quick loops, its dashboard URL read from the line it prints.
import type { ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { collect, spawnCli, tempDataDir, type CliResult } from '../../support/cli.ts';

export const rendererIndex = resolve(import.meta.dirname, '../../../dist/renderer/index.html');

export const quickLoops = [
  '--sync-interval',
  '0.3',
  '--upload-interval',
  '0.3',
  '--status-interval',
  '1',
  '--ping-interval',
  '1',
];

export interface DashboardAgent {
  url: string;
  dataDir: string;
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Everything printed so far (for a failure message). */
  output(): string;
  /** SIGTERM, then the exit. */
  stop(): Promise<CliResult>;
}

export async function startDashboardAgent(
  options: { dataDir?: string; args?: string[] } = {},
): Promise<DashboardAgent> {
  if (!existsSync(rendererIndex))
    throw new Error(`${rendererIndex} is missing: run "npm run build:renderer" first (npm test builds it)`);
  const dataDir = options.dataDir ?? (await tempDataDir());
  const child = spawnCli(['run', '--dashboard', '--data-dir', dataDir, ...quickLoops, ...(options.args ?? [])]);
  let printed = '';
  child.stderr.on('data', (c: Buffer) => (printed += c.toString()));
  const done = collect(child);
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`no dashboard URL within 20 s:\n${stdout}\n${printed}`)), 20_000);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const found = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(stdout)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolveUrl(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`uptime-agent exited with ${code} before printing its dashboard URL:\n${stdout}\n${printed}`));
    });
  });
  return {
    url,
    dataDir,
    child,
    output: () => printed,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return done;
    },
  };
}
