// What the running agent wants `status` (another process) to know when the store itself cannot
// say it: a full disk stops every SQLite write. The file is allocated once at start, at a fixed
// size, and always rewritten in place at that size, so writing it needs no new space on disk.
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { privateFileMode } from '../base/data-dir.ts';

export const runStateFile = (dataDir: string): string => join(dataDir, 'run-state.json');

/** Large enough for a few messages; what does not fit is cut, never grown. */
const fileBytes = 4096;

export interface RunState {
  pid: number;
  /** The store problem in words (store/result-sink.ts describeStoreProblem), or null. */
  store_problem: string | null;
  /** Results waiting in memory for the store. */
  unsaved_results: number;
}

export interface RunStateWriter {
  write(state: Omit<RunState, 'pid'>): void;
  /** Removes the file: a stopped agent has no live state. */
  close(): void;
}

export function openRunStateWriter(dataDir: string): RunStateWriter {
  const file = runStateFile(dataDir);
  const fd = openSync(file, 'w', privateFileMode);
  const buffer = Buffer.alloc(fileBytes, 0x20);
  const write = (state: Omit<RunState, 'pid'>): void => {
    buffer.fill(0x20);
    buffer.write(JSON.stringify({ pid: process.pid, ...state }).slice(0, fileBytes - 1), 'utf8');
    try {
      writeSync(fd, buffer, 0, fileBytes, 0);
    } catch {
      // Best effort: the window and the log have the same words.
    }
  };
  ftruncateSync(fd, 0);
  write({ store_problem: null, unsaved_results: 0 });
  return {
    write,
    close() {
      closeSync(fd);
      rmSync(file, { force: true });
    },
  };
}

/** The running agent's live state, if one is running (its pid alive) and wrote one. */
export function readRunState(dataDir: string, isAlive: (pid: number) => boolean): RunState | undefined {
  const file = runStateFile(dataDir);
  if (!existsSync(file)) return undefined;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8').trim()) as RunState;
    return typeof state.pid === 'number' && isAlive(state.pid) ? state : undefined;
  } catch {
    return undefined;
  }
}
