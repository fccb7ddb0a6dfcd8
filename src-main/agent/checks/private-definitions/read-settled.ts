// Reads the file only in a settled state. An editor or script may still be writing while we read;
// applying such a torn read could run half a definition. So the file is stat-ed before and after
// the read, and when anything moved in between we wait and read again, a bounded number of times.
import type { BigIntStats } from 'node:fs';
import { readLocalFile } from '../../base/local-file.ts';
const { stat } = process.getBuiltinModule('node:fs/promises');
const { setTimeout: delay } = process.getBuiltinModule('node:timers/promises');

export type ReadOutcome =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  | { kind: 'denied' }
  | { kind: 'directory' }
  /** A FIFO, a device (/dev/zero), a socket: never read (it could block or never end). */
  | { kind: 'not-a-file' }
  | { kind: 'too-large'; bytes: number; maxBytes: number }
  | { kind: 'not-utf8' }
  | { kind: 'unsettled'; attempts: number }
  | { kind: 'failed'; code: string };

export interface ReadSettledOptions {
  /** Pause before reading again after the file moved during a read. */
  settleMs: number;
  attempts: number;
  maxBytes: number;
}

/**
 * The outcome and the file's signature as read (see fileSignature): a later signature that differs
 * means the file changed since, which is what the poll fallback looks for. Stat follows symlinks.
 */
export async function readSettled(
  file: string,
  options: ReadSettledOptions,
): Promise<{ outcome: ReadOutcome; signature?: string }> {
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    if (attempt > 1) await delay(options.settleMs);
    let before: BigIntStats;
    let bytes: Buffer;
    let after: BigIntStats;
    try {
      before = await stat(file, { bigint: true });
      if (before.isDirectory()) return { outcome: { kind: 'directory' }, signature: signatureOf(before) };
      if (!before.isFile()) return { outcome: { kind: 'not-a-file' }, signature: signatureOf(before) };
      if (before.size > BigInt(options.maxBytes)) {
        return {
          outcome: { kind: 'too-large', bytes: Number(before.size), maxBytes: options.maxBytes },
          signature: signatureOf(before),
        };
      }
      // Bounded, regular files only: the path may have been swapped since the stat above.
      const read = await readLocalFile(file, options.maxBytes);
      after = await stat(file, { bigint: true });
      if (!read.ok) {
        const signature = signatureOf(after);
        if (read.problem === 'not-a-file') return { outcome: { kind: 'not-a-file' }, signature };
        if (read.problem === 'too-large')
          return {
            outcome: {
              kind: 'too-large',
              bytes: Math.max(Number(after.size), options.maxBytes + 1),
              maxBytes: options.maxBytes,
            },
            signature,
          };
        if (read.problem === 'missing') return { outcome: { kind: 'missing' }, signature };
        return { outcome: errorOutcome({ code: read.code }), signature };
      }
      bytes = read.bytes;
    } catch (error) {
      return { outcome: errorOutcome(error), signature: errorSignature(error) };
    }
    const signature = signatureOf(after);
    if (signature !== signatureOf(before) || BigInt(bytes.length) !== after.size) continue;
    return { outcome: decode(bytes), signature };
  }
  return { outcome: { kind: 'unsettled', attempts: options.attempts } };
}

/** What identifies one version of the file (or why it cannot be stat-ed), for change detection. */
export async function fileSignature(file: string): Promise<string> {
  try {
    return signatureOf(await stat(file, { bigint: true }));
  } catch (error) {
    return errorSignature(error);
  }
}

// Inode and device change on a rename-replace; size, mtime and ctime on an in-place write.
// Nanosecond times: two saves within one millisecond still differ on most filesystems.
function signatureOf(s: BigIntStats): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

function errorSignature(error: unknown): string {
  return `error:${errorCode(error)}`;
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

function errorOutcome(error: unknown): ReadOutcome {
  const code = errorCode(error);
  // ENOTDIR: a folder on the way is a file; for the user that is the same as "not there".
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  if (code === 'EACCES' || code === 'EPERM') return { kind: 'denied' };
  if (code === 'EISDIR') return { kind: 'directory' };
  return { kind: 'failed', code };
}

// Fatal decoding: a byte that is not UTF-8 must not silently become U+FFFD inside a header value
// or match string. The decoder also drops a leading byte order mark.
function decode(bytes: Buffer): ReadOutcome {
  try {
    return { kind: 'text', text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { kind: 'not-utf8' };
  }
}
