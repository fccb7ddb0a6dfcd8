// The one way the agent reads a local file it was given or keeps (private definitions, settings,
// the key, the lock, the run state): only a regular file, and only up to a byte cap. A path that
// names a FIFO, a device (/dev/zero), a directory or a socket is refused before any read: the
// file is opened non-blocking (a FIFO with no writer would block open() and read() for ever,
// and SIGTERM with it) and checked with fstat on the very descriptor that would be read.
import type { Stats } from 'node:fs';
const { closeSync, constants, fstatSync, openSync, readSync } = process.getBuiltinModule('node:fs');
const { open } = process.getBuiltinModule('node:fs/promises');

/** Why a local file was not read; `missing` is the ordinary "not there yet". */
export type LocalFileProblem = 'missing' | 'not-a-file' | 'too-large' | 'unreadable';

export type LocalFileRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; problem: LocalFileProblem; /** errno code, when the system gave one. */ code?: string };

// O_NONBLOCK makes open() of a FIFO return at once; O_NOCTTY keeps a terminal from becoming
// ours. Neither changes how a regular file is read. (Windows lacks both.)
const optional = constants as Partial<typeof constants>;
const openFlags = constants.O_RDONLY | (optional.O_NONBLOCK ?? 0) | (optional.O_NOCTTY ?? 0);

const chunkBytes = 64 * 1024;

function refused(stats: Stats, maxBytes: number): LocalFileRead | undefined {
  if (!stats.isFile()) return { ok: false, problem: 'not-a-file' };
  if (stats.size > maxBytes) return { ok: false, problem: 'too-large' };
  return undefined;
}

function failed(error: unknown): LocalFileRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: false, problem: 'missing', code };
  // A path through a file ("file/x") or a folder that is not one.
  if (code === 'ENOTDIR') return { ok: false, problem: 'missing', code };
  if (code === 'EISDIR') return { ok: false, problem: 'not-a-file', code };
  return { ok: false, problem: 'unreadable', ...(code === undefined ? {} : { code }) };
}

/** Reads a regular file of at most `maxBytes`; anything else is a problem, never a hang. */
export function readLocalFileSync(path: string, maxBytes: number): LocalFileRead {
  let fd: number;
  try {
    fd = openSync(path, openFlags);
  } catch (error) {
    return failed(error);
  }
  try {
    const early = refused(fstatSync(fd), maxBytes);
    if (early !== undefined) return early;
    // The size can grow after fstat (or lie, as in /proc): the cap holds whatever it says.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) return { ok: false, problem: 'too-large' };
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (error) {
    return failed(error);
  } finally {
    closeSync(fd);
  }
}

/** readLocalFileSync without blocking the event loop (files a running agent re-reads). */
export async function readLocalFile(path: string, maxBytes: number): Promise<LocalFileRead> {
  let handle;
  try {
    handle = await open(path, openFlags);
  } catch (error) {
    return failed(error);
  }
  try {
    const early = refused(await handle.stat(), maxBytes);
    if (early !== undefined) return early;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { ok: false, problem: 'too-large' };
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (error) {
    return failed(error);
  } finally {
    await handle.close();
  }
}

/** The problem in words for a one-line message: "<what> <path> <this>". */
export function localFileProblemText(read: Extract<LocalFileRead, { ok: false }>, maxBytes: number): string {
  switch (read.problem) {
    case 'missing':
      return 'does not exist';
    case 'not-a-file':
      return 'is not a regular file (a folder, device or pipe)';
    case 'too-large':
      return `is larger than ${maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / 1024 / 1024)} MiB` : `${Math.round(maxBytes / 1024)} KiB`}`;
    case 'unreadable':
      return `cannot be read${read.code === undefined ? '' : ` (${read.code})`}`;
  }
}
