// Runs the real `uptime-agent` command as a child process, as users and external tests do.
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { resolve } from 'node:path';

export const cliEntry = resolve(import.meta.dirname, '../../src-main/cli/main.ts');

/** The command's first line: how it starts node, with the agent's V8 flags (read, not run). */
export const commandFirstLine = (): string => readFileSync(cliEntry, 'utf8').split('\n')[0] ?? '';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  stdin?: string;
}

const baseEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  UPTIME_AGENT_ENROLL_TOKEN: '',
  UPTIME_AGENT_DATA_DIR: '',
  UPTIME_AGENT_LOG_LEVEL: 'info',
  ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent/electron-dist-guard',
});

export function spawnCli(args: string[], options: CliOptions = {}): ChildProcessByStdio<Writable, Readable, Readable> {
  const child = spawn(process.execPath, [cliEntry, ...args], { env: { ...baseEnv(), ...options.env }, stdio: 'pipe' });
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  else child.stdin.end();
  return child;
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolvePromise) => child.on('close', (code) => resolvePromise({ code, stdout, stderr })));
}

export const runCli = (args: string[], options: CliOptions = {}): Promise<CliResult> =>
  collect(spawnCli(args, options));

export { tempDataDir } from './temp-dir.ts';

export const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1) ?? '';
