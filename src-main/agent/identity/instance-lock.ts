// One running agent per data folder: two would run every check twice and race on the outbox.
// The lock names its holder by pid and, on Linux, by the process's start time: after a crash and
// a reboot the same pid may belong to an unrelated process, which must not block the agent.
import { readLocalFileSync } from '../base/local-file.ts';
import { join } from 'node:path';
import { DataDirError, makeDataDir, privateFileMode } from '../base/data-dir.ts';
const { linkSync, readFileSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');

export type LockOutcome =
  | { ok: true; release: () => void; /** A stale lock that was taken over, for the log. */ tookOver?: { pid: number } }
  | { ok: false; pid: number };

interface LockRecord {
  pid: number;
  /** /proc/<pid>/stat start time (clock ticks since boot); absent off Linux and in old locks. */
  started?: string;
}

export const lockFile = (dataDir: string): string => join(dataDir, 'agent.lock');

/** Whether a process with this pid exists (ours to signal or not). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/<pid>/stat; the command name before it may hold spaces and parentheses. */
export function processStartTime(pid: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

function looksLikeAgent(pid: number): boolean {
  try {
    return /uptime-agent|uptime agent|cli\/main\.(ts|js)/i.test(
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '),
    );
  } catch {
    return true;
  }
}

/** Whether the process a lock names is still the uptime-agent that wrote it. */
export function holderAlive(record: LockRecord): boolean {
  if (!processAlive(record.pid)) return false;
  const started = processStartTime(record.pid);
  if (started === undefined) return true; // no /proc: a live pid is all that can be known
  if (record.started !== undefined) return started === record.started;
  return looksLikeAgent(record.pid); // a lock written before start times were recorded
}

function parseRecord(text: string): LockRecord | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const raw = JSON.parse(trimmed) as Partial<LockRecord>;
    if (typeof raw.pid !== 'number') return undefined;
    return { pid: raw.pid, ...(typeof raw.started === 'string' ? { started: raw.started } : {}) };
  } catch {
    return undefined;
  }
}

/** A lock record is a pid and a start time: a few dozen bytes. */
const lockMaxBytes = 4096;

/** The lock file's text; undefined when it is gone; a folder, device or pipe in its place is refused. */
function readLock(file: string): string | undefined {
  const read = readLocalFileSync(file, lockMaxBytes);
  if (read.ok) return read.bytes.toString('utf8');
  if (read.problem === 'not-a-file')
    throw new DataDirError(
      `${file} is not a regular file (a folder, device or pipe), so it cannot tell whether another uptime-agent runs; remove it and start again`,
      'unusable',
    );
  // Too large to be ours: not a record, so a stale lock to take over (parseRecord says no pid).
  return read.problem === 'too-large' ? '' : undefined;
}

/** The live holder of a data folder's lock, if any (`status` uses it to trust live state). */
export function lockHolder(dataDir: string): number | undefined {
  let text: string | undefined;
  try {
    text = readLock(lockFile(dataDir));
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  const record = parseRecord(text);
  return record !== undefined && holderAlive(record) ? record.pid : undefined;
}

/**
 * Takes `<dataDir>/agent.lock`. The record is written to a temporary file and linked into place,
 * so the lock never exists half-written and only one of two racing agents can create it. A lock
 * whose holder is gone (dead, or its pid now another process) is taken over.
 */
export function takeInstanceLock(dataDir: string): LockOutcome {
  makeDataDir(dataDir);
  const file = lockFile(dataDir);
  // A folder (or FIFO) named agent.lock would read as "released" for ever: say what it is instead.
  readLock(file);
  const started = processStartTime(process.pid);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ pid: process.pid, ...(started === undefined ? {} : { started }) }), {
    mode: privateFileMode,
  });
  let tookOver: { pid: number } | undefined;
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(temp, file);
        const release = (): void => rmSync(file, { force: true });
        return tookOver === undefined ? { ok: true, release } : { ok: true, release, tookOver };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const text = readLock(file);
        if (text === undefined) continue; // released in between
        const record = parseRecord(text);
        if (record !== undefined && record.pid !== process.pid && holderAlive(record))
          return { ok: false, pid: record.pid };
        tookOver = { pid: record?.pid ?? -1 };
        rmSync(file, { force: true });
      }
    }
    return { ok: false, pid: -1 };
  } finally {
    rmSync(temp, { force: true });
  }
}
