// Every process the agent bench starts, each in its own process group so that one signal stops it
// with everything it started (nginx's workers). Stopped on success, on failure, on Ctrl-C and when
// the time budget runs out; temporary folders go with them.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';

const running = new Set<ChildProcess>();
const folders = new Set<string>();

export function startChild(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: 'ignore', ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  // A spawn failure (missing binary) surfaces as a rejected step, not an unhandled event.
  child.once('error', () => running.delete(child));
  return child;
}

/** Asks a child started with an IPC channel one question and returns its next message. */
export async function ask<T>(child: ChildProcess, question: string): Promise<T> {
  const answer = once(child, 'message') as Promise<[T]>;
  child.send(question);
  return (await answer)[0];
}

export function removeOnExit(folder: string): string {
  folders.add(folder);
  return folder;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM, then SIGKILL after graceMs; resolves once the process has exited. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  signalGroup(child, 'SIGTERM');
  const force = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(force);
  // Whatever the group leader left behind.
  signalGroup(child, 'SIGKILL');
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child, 3_000)));
  removeFolders();
}

function removeFolders(): void {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders.clear();
}

/** Ctrl-C, SIGTERM, a thrown error or the deadline: stop everything, say why, exit non-zero. */
export function stopEverythingOn(deadlineMs: number): void {
  const abort = (why: string, code: number): void => {
    process.stderr.write(`\nbench: ${why}; stopping every process it started\n`);
    stopAll().then(
      () => process.exit(code),
      () => process.exit(code),
    );
  };
  process.once('SIGINT', () => abort('interrupted', 130));
  process.once('SIGTERM', () => abort('terminated', 143));
  setTimeout(() => abort(`time budget of ${Math.round(deadlineMs / 1000)} s used up`, 1), deadlineMs).unref();
  // Last resort when the process ends any other way.
  process.once('exit', () => {
    for (const child of running) signalGroup(child, 'SIGKILL');
    removeFolders();
  });
}
