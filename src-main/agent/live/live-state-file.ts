// What the running agent knows that `status --json` (another process) reports, in one typed
// file: live-state.json in the data folder, 0600, with one `written_at` and one freshness rule.
// The store (meta) keeps durable facts only (cursor, owner, dropped count); everything here
// belongs to a running agent and means nothing once it is gone.
//
// Written whole: a temporary file renamed over the old one, so a reader sees the old or the new
// document, never a mix. On a full disk (the case `store_problem` exists for) or with no file
// descriptor to spare (a local fault) the temporary file cannot be written; the document is then
// rewritten in place inside the old file, through the descriptor the writer kept open, whose
// size is always a whole number of padding blocks, so that needs no new space on the disk.
import { join } from 'node:path';
import type { PrivateDefinitionsSummary } from '../checks/private-definitions/index.ts';
import { privateFileMode } from '../base/data-dir.ts';
import type { LocalFault } from '../base/local-fault.ts';
import type { LoadReport } from '../schedule/load.ts';
import type { ConnectionStateName } from './state.ts';
const { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync, fstatSync } =
  process.getBuiltinModule('node:fs');

export const liveStateFile = (dataDir: string): string => join(dataDir, 'live-state.json');

/** A document older than this many write periods belongs to an agent that is gone (killed). */
export const staleAfterPeriods = 3;

/** The file grows in blocks of this size, so that an in-place rewrite fits in what it has. */
const blockBytes = 4096;

export interface LiveStateDocument {
  /** The writing agent's process: a document whose writer is gone is stale. */
  pid: number;
  /** RFC 3339, when this document was written. */
  written_at: string;
  /** The writer writes at least this often (ms); freshness is counted in these periods. */
  write_period_ms: number;
  /** The last load sample (schedule/load.ts), with when it was taken; null until probing ran a while. */
  load: (LoadReport & { sampled_at: string }) | null;
  /** Server clock minus this machine's, seconds, at the last answer with a Date header. */
  clock_skew_sec: number | null;
  private_definitions: PrivateDefinitionsSummary;
  /** Why results cannot be saved right now (a full disk), in words; null when they can. */
  store_problem: string | null;
  /** Results waiting in memory for the store. */
  unsaved_results: number;
  /** Runs failing because this machine ran out of something (health/local-faults.ts); null when none do. */
  local_fault: { fault: LocalFault; since: string; runs: number } | null;
  /** The server as the agent last found it (live/state.ts ConnectionState); null when not enrolled. */
  connection: { state: ConnectionStateName; since: string | null; last_success_at: string | null } | null;
}

export type LiveStateContent = Omit<LiveStateDocument, 'pid' | 'written_at' | 'write_period_ms'>;

function padded(text: string, minimum: number): Buffer {
  const bytes = Buffer.byteLength(text, 'utf8');
  const size = Math.max(minimum, Math.ceil((bytes + 1) / blockBytes) * blockBytes);
  const buffer = Buffer.alloc(size, 0x20);
  buffer.write(text, 'utf8');
  buffer[size - 1] = 0x0a;
  return buffer;
}

export interface LiveStateWriter {
  /** Writes the document; false when neither a whole replacement nor an in-place rewrite worked. */
  write(document: LiveStateDocument): boolean;
  /** Lets go of the kept descriptor and removes the file: the agent stops. */
  remove(): void;
}

/**
 * One agent's writer. It keeps the descriptor of the file it last wrote (the temporary file's,
 * renamed into place), so that the in-place rewrite needs no new descriptor: a machine out of
 * file descriptors (the local fault `status` must report) can still be told about in this file.
 */
export function openLiveStateWriter(dataDir: string): LiveStateWriter {
  const file = liveStateFile(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  let kept: number | undefined;

  function keep(fd: number | undefined): void {
    if (kept !== undefined) closeSync(kept);
    kept = fd;
  }

  function replace(text: string): boolean {
    let fd: number | undefined;
    try {
      fd = openSync(temp, 'w', privateFileMode);
      writeSync(fd, padded(text, 0));
      renameSync(temp, file);
      keep(fd);
      return true;
    } catch {
      if (fd !== undefined) closeSync(fd);
      forget(temp);
      return false;
    }
  }

  /** The kept file, unless someone removed it since (then its name is opened again). */
  function inPlace(text: string): boolean {
    try {
      if (kept !== undefined && fstatSync(kept).nlink > 0) return rewrite(kept, text);
      keep(undefined);
      const fd = openSync(file, 'r+');
      try {
        return rewrite(fd, text);
      } finally {
        closeSync(fd);
      }
    } catch {
      return false;
    }
  }

  return {
    write: (document) => {
      const text = JSON.stringify(document);
      return replace(text) || inPlace(text);
    },
    remove: () => {
      keep(undefined);
      rmSync(file, { force: true });
    },
  };
}

/** Removes a half-written temporary file; whatever stands in its way is no reason to fail the write. */
function forget(temp: string): void {
  try {
    rmSync(temp, { force: true });
  } catch {
    // Not ours to clear (a folder of that name): the in-place rewrite does not need it gone.
  }
}

/** The full-disk and out-of-descriptors path: the old file's blocks take the document if it fits. */
function rewrite(fd: number, text: string): boolean {
  const size = fstatSync(fd).size;
  if (Buffer.byteLength(text, 'utf8') + 1 > size) return false;
  writeSync(fd, padded(text, size), 0, size, 0);
  return true;
}

/**
 * The running agent's live state, if it is fresh: its writer still runs (isAlive) and wrote it
 * within staleAfterPeriods of its write period. Anything else (no file, a torn or foreign one)
 * reads as no running agent.
 */
export function readLiveState(
  dataDir: string,
  isAlive: (pid: number) => boolean,
  nowMs: number,
): LiveStateDocument | undefined {
  let document: LiveStateDocument;
  try {
    document = JSON.parse(readFileSync(liveStateFile(dataDir), 'utf8')) as LiveStateDocument;
  } catch {
    return undefined;
  }
  if (typeof document.pid !== 'number' || !isAlive(document.pid)) return undefined;
  const age = nowMs - Date.parse(document.written_at);
  if (!(age <= staleAfterPeriods * document.write_period_ms)) return undefined;
  return document;
}
