// The headless agent as real processes against a reference server, the way CLI tests set it up:
// `uptime-agent enroll` a data folder, `uptime-agent run` on it, read `status --json`, and stop
// it with SIGTERM as a service manager does.
import type { ChildProcess } from 'node:child_process';
import type { ReferenceServer } from '../reference-server/index.ts';
import { collect, lastLine, runCli, spawnCli, type CliOptions, type CliResult } from './cli.ts';

/** The enroll command line for dataDir (the four place fields the wire API requires included). */
export const enrollArgs = (
  server: Pick<ReferenceServer, 'url'>,
  token: string,
  dataDir: string,
  ...extra: string[]
): string[] => [
  'enroll',
  '--data-dir',
  dataDir,
  '--server',
  server.url,
  '--token',
  token,
  '--name',
  'n',
  '--region',
  'r',
  '--country',
  'c',
  '--city',
  'x',
  ...extra,
];

/** Enrolls dataDir with `uptime-agent enroll`: the new monitor's id; any other exit fails with enroll's reason. */
export async function enrollDataDir(
  server: Pick<ReferenceServer, 'url'>,
  token: string,
  dataDir: string,
  ...extra: string[]
): Promise<string> {
  const result = await runCli(enrollArgs(server, token, dataDir, ...extra));
  if (result.code !== 0) throw new Error(`uptime-agent enroll exited ${String(result.code)}: ${result.stderr.trim()}`);
  return lastLine(result.stdout);
}

export interface RunningAgent {
  /** The process, for a test that signals it itself (SIGKILL). */
  child: ChildProcess;
  /** What the process has written to stderr (its log) so far. */
  log(): string;
  /** How the process ended, once it has. */
  exited: Promise<CliResult>;
  /** SIGTERM, then how it ended. */
  stop(): Promise<CliResult>;
}

/** Starts `uptime-agent run --data-dir dataDir ...flags`. */
export function startRun(dataDir: string, flags: string[] = [], options: CliOptions = {}): RunningAgent {
  const child = spawnCli(['run', '--data-dir', dataDir, ...flags], options);
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = collect(child);
  return {
    child,
    log: () => log,
    exited,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** `uptime-agent status --json` of dataDir, parsed; T names the fields the test reads. */
export async function statusJson<T>(dataDir: string): Promise<T> {
  const result = await runCli(['status', '--json', '--data-dir', dataDir]);
  if (result.code !== 0)
    throw new Error(`uptime-agent status --json exited ${String(result.code)}: ${result.stderr.trim()}`);
  return JSON.parse(result.stdout) as T;
}
