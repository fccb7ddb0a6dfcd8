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

/** `#!/usr/bin/env -S NAME=value node --flag …` → the assignments and the node flags. */
export function parseShebang(firstLine: string): Launch {
  const words = firstLine
    .replace(/^#!\S*env\s+(-S\s+)?/, '')
    .trim()
    .split(/\s+/);
  const nodeAt = words.findIndex((w) => w === 'node' || w.endsWith('/node'));
  if (!firstLine.startsWith('#!') || nodeAt < 0) throw new Error(`not a node shebang: ${firstLine}`);
  const env = Object.fromEntries(
    words.slice(0, nodeAt).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
  );
  return { env, nodeArgs: words.slice(nodeAt + 1) };
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
