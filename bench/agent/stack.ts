// The memory of the settled stack alone (stack-process.js), started with the same V8 flags and
// environment as the command, read from the command's own first line so they cannot drift.
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild, stopChild } from './children.ts';
import { nextMessage } from './measure.ts';
import { sampleProcess } from './proc-stats.ts';
import type { Target } from './target.ts';

export interface Launch {
  env: Record<string, string>;
  nodeArgs: string[];
}

/** NAME=value words → an environment. */
const envOf = (words: readonly string[]): Record<string, string> =>
  Object.fromEntries(words.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));

/** `#!/usr/bin/env -S NAME=value node --flag …` → the assignments and the node flags. */
export function parseShebang(firstLine: string): Launch {
  const words = firstLine
    .replace(/^#!\S*env\s+(-S\s+)?/, '')
    .trim()
    .split(/\s+/);
  const nodeAt = words.findIndex((w) => w === 'node' || w.endsWith('/node'));
  if (!firstLine.startsWith('#!') || nodeAt < 0) throw new Error(`not a node shebang: ${firstLine}`);
  return { env: envOf(words.slice(0, nodeAt)), nodeArgs: words.slice(nodeAt + 1) };
}

/** The first line that starts node so: parseShebang's inverse. */
export const shebangOf = (launch: Launch): string =>
  ['#!/usr/bin/env -S', ...Object.entries(launch.env).map(([n, v]) => `${n}=${v}`), 'node', ...launch.nodeArgs].join(
    ' ',
  );

/**
 * The command's launch with a set of start-up words in place of its node flags (bench:flags): the
 * set's leading NAME=value words join the command's own environment and win over it, the rest
 * are the flags.
 */
export function launchWith(own: Launch, set: string): Launch {
  const words = set.trim().split(/\s+/).filter(Boolean);
  const flagsAt = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const assignments = flagsAt < 0 ? words : words.slice(0, flagsAt);
  return { env: { ...own.env, ...envOf(assignments) }, nodeArgs: flagsAt < 0 ? [] : words.slice(flagsAt) };
}

/** How the built command starts node: its first line's environment and flags. */
export const commandLaunch = (cli: string): Launch => parseShebang(readFileSync(cli, 'utf8').split('\n', 1)[0] ?? '');

export interface StackMemory {
  rssMb: number;
  withThreadMb: number;
}

async function idleRss(launch: Launch, target: Target, folder: string, thread: boolean): Promise<number> {
  const script = new URL('./stack-process.js', import.meta.url).pathname;
  const child = startChild(
    process.execPath,
    [...launch.nodeArgs, script, target.url, mkdtempSync(join(folder, 'stack-')), ...(thread ? ['thread'] : [])],
    {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { ...process.env, ...launch.env },
    },
  );
  try {
    await nextMessage(child, (m) => (m === 'idle' ? true : undefined));
    return sampleProcess(child.pid ?? 0).rssMb;
  } finally {
    await stopChild(child);
  }
}

export async function measureStack(cli: string, target: Target, folder: string): Promise<StackMemory> {
  const launch = commandLaunch(cli);
  return {
    rssMb: await idleRss(launch, target, folder, false),
    withThreadMb: await idleRss(launch, target, folder, true),
  };
}
