// Opens the agent's SQLite store (node:sqlite, no native addon) and brings its schema up to date.
import { dirname } from 'node:path';
import { makePrivate, prepareDataDir } from '../base/data-dir.ts';
import { createJournalFlush, type JournalFlush } from './journal-flush.ts';
import { migrations } from './migrations.ts';
const { closeSync, existsSync, openSync } = process.getBuiltinModule('node:fs');
const { pathToFileURL } = process.getBuiltinModule('node:url');
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');

export type Database = InstanceType<typeof DatabaseSync>;

/** SQLite's journal (WAL) file beside a store file: the store's name with -wal, in WAL mode. */
export const journalFileOf = (file: string): string => `${file}-wal`;

/**
 * WAL with synchronous=NORMAL: a committed transaction survives a crash or SIGKILL of the
 * process (only an OS crash can lose the last commits), and readers such as `status --json`
 * never block the running agent. busy_timeout covers that second process briefly writing.
 * The file is created 0600 before SQLite opens it: SQLite gives the WAL and SHM files the
 * main file's mode, so all three stay the user's alone whatever the umask.
 * A missing folder is created 0700 (data-dir.ts).
 */
export function openDatabase(file: string): Database {
  if (file !== ':memory:') {
    if (!existsSync(dirname(file))) prepareDataDir(dirname(file));
    closeSync(openSync(file, 'a', 0o600));
  }
  makePrivate(file);
  const db = new DatabaseSync(file, { timeout: 5000 });
  try {
    db.exec(
      `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA journal_size_limit = ${journalSizeLimit}; PRAGMA wal_autocheckpoint = ${checkpointPages};`,
    );
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  if (file !== ':memory:') {
    for (const suffix of ['-wal', '-shm']) makePrivate(`${file}${suffix}`);
    journalFlushes.set(db, createJournalFlush(journalFileOf(file)));
  }
  return db;
}

/** Each file store's background journal flush (journal-flush.ts), told of every commit. */
const journalFlushes = new WeakMap<Database, JournalFlush>();

/** The store's background journal flush; undefined for a store in memory (tests, benches). */
export const journalFlushOf = (db: Database): JournalFlush | undefined => journalFlushes.get(db);

/**
 * After a checkpoint the journal (WAL) is cut back to this size instead of keeping its largest
 * (~4 MiB at the default checkpoint of 1,000 pages): what it held is in the store by then, and on
 * a disk that fills up every byte it keeps is a byte the next commit cannot have.
 */
const journalSizeLimit = 512 * 1024;

/**
 * Journal pages between checkpoints (SQLite's default is 1,000, ~4 MiB). A checkpoint runs inside
 * the commit that crosses the mark and waits for two fsyncs: at 2,000-2,500 runs a second that was
 * a commit of 20-50 ms every ~2.5 s, most of the main thread's long tasks. Four times the pages
 * make a quarter of the stalls; a page rewritten meanwhile (the outbox's newest, the rings') is
 * copied once, not four times. The first fsync, the journal's, finds it mostly written already
 * (journal-flush.ts).
 */
const checkpointPages = 4_000;

/**
 * Journal pages between checkpoints once a store has met a full disk (SQLite's default is 1,000,
 * ~4 MiB): a journal only checkpointed at 4 MiB needs 4 MiB free before it is ever cut back, so
 * freeing less never let saving resume for long (issue 27 point 10).
 */
const tightCheckpointPages = 64;
const tightStores = new WeakSet<Database>();

/**
 * A write failed on a full disk: from now on the journal is checkpointed every few pages (and cut
 * back, journalSizeLimit), and right now what it holds is moved into the store and the journal cut
 * to nothing, so that the next commit needs only its own few pages of free space. Best effort:
 * with no space at all the checkpoint fails too, and the first commit that fits checkpoints.
 */
function onDiskFull(db: Database): void {
  try {
    if (!tightStores.has(db)) db.exec(`PRAGMA wal_autocheckpoint = ${tightCheckpointPages}`);
    tightStores.add(db);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } catch {
    // See above.
  }
}

/**
 * A reader for another process's store (`status`): never migrates, never writes. The caller
 * checks that the file exists first. With no WAL file no agent has the store open (a clean close
 * checkpoints and removes it), and even a read-only connection would create WAL and SHM files:
 * the store is then opened as immutable, which creates nothing.
 */
export function openDatabaseReadOnly(file: string): Database {
  if (existsSync(journalFileOf(file))) return new DatabaseSync(file, { readOnly: true, timeout: 5000 });
  const url = pathToFileURL(file);
  url.searchParams.set('immutable', '1');
  return new DatabaseSync(url, { readOnly: true });
}

/** The schema version a store has; a reader of an older store avoids newer columns. */
export const schemaVersion = (db: Database): number =>
  (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;

export const currentSchemaVersion = migrations.length;

/**
 * Brings the store's schema up to `target` (every migration by default), one version a commit as
 * `run` does at its start; a lower target leaves a store as an older version left it (tests).
 */
export function migrate(db: Database, target = migrations.length): void {
  const current = schemaVersion(db);
  if (current > migrations.length) {
    throw new Error(
      `the data folder was written by a newer Uptime Agent (schema ${current}, this version knows ${migrations.length}); update the app`,
    );
  }
  for (let version = current; version < Math.min(target, migrations.length); version++) {
    transaction(db, () => {
      db.exec(migrations[version] ?? '');
      db.exec(`PRAGMA user_version = ${version + 1}`);
    });
  }
}

/**
 * Runs fn inside one transaction: all of it is committed, or none of it. SQLite itself rolls
 * back after some errors (a full disk, an I/O error): ROLLBACK then has nothing to undo and
 * would throw "no transaction is active", hiding the error that matters — so it runs only
 * while a transaction is still open.
 */
export function transaction<T>(db: Database, fn: () => T): T {
  // Inside a caller's transaction, fn joins it: the caller commits or rolls back the whole.
  if (db.isTransaction) return fn();
  db.exec('BEGIN IMMEDIATE');
  try {
    const value = fn();
    db.exec('COMMIT');
    undoers.delete(db);
    journalFlushes.get(db)?.committed();
    return value;
  } catch (error) {
    const undo = undoers.get(db) ?? [];
    undoers.delete(db);
    for (const forget of undo) forget();
    if (stillOpen(db)) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // The first error is the one to report.
      }
    }
    if (isDiskFull(error)) onDiskFull(db);
    throw error;
  }
}

/**
 * Runs fn's reads in one read transaction, so that every one of them sees the store as the first
 * did. A reader of the store another process writes (`status` while `run` goes on) asks which
 * schema the store has and then reads the tables of that schema, and the agent may commit between
 * two reads: at its start one migration a commit, so that a report read the version before the
 * history was keyed by check and the history after. Inside a caller's transaction fn joins it.
 */
export function atOneMoment<T>(db: Database, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec('BEGIN');
  try {
    return fn();
  } finally {
    // Nothing was written: ending the transaction only lets go of the moment it read.
    if (stillOpen(db)) db.exec('ROLLBACK');
  }
}

/** What to forget of the open transaction's writes if it does not commit (onRollback). */
const undoers = new WeakMap<Database, (() => void)[]>();

/**
 * Registers what to forget if the transaction under way does not commit: a cache of rows that
 * transaction created (check-keys.ts) must not outlive them, whichever caller owns the transaction.
 * Outside a transaction the row is already committed, and nothing is registered.
 */
export function onRollback(db: Database, undo: () => void): void {
  if (!db.isTransaction) return;
  const list = undoers.get(db);
  if (list === undefined) undoers.set(db, [undo]);
  else list.push(undo);
}

/** Asked again after fn ran: fn or SQLite may have ended the transaction. */
const stillOpen = (db: Database): boolean => db.isTransaction;

/** SQLite's primary result codes the agent acts on (errcode & 0xff). */
export const sqliteCodes = {
  error: 1,
  full: 13,
  corrupt: 11,
  notADatabase: 26,
  readOnly: 8,
  ioError: 10,
  cantOpen: 14,
} as const;

/** The SQLite primary result code of an error from node:sqlite, if it is one. */
export function sqliteCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown } | undefined)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

export const isDiskFull = (error: unknown): boolean =>
  sqliteCode(error) === sqliteCodes.full || (error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC';
