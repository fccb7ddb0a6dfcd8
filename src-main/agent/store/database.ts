// Opens the agent's SQLite store (node:sqlite, no native addon) and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { migrations } from './migrations.ts';

export type Database = DatabaseSync;

/**
 * WAL with synchronous=NORMAL: a committed transaction survives a crash or SIGKILL of the
 * process (only an OS crash can lose the last commits), and readers such as `status --json`
 * never block the running agent. busy_timeout covers that second process briefly writing.
 */
export function openDatabase(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new DatabaseSync(file, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  migrate(db);
  return db;
}

function migrate(db: Database): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  const current = row.user_version;
  if (current > migrations.length) {
    throw new Error(
      `the data folder was written by a newer Uptime Agent (schema ${current}, this version knows ${migrations.length}); update the app`,
    );
  }
  for (let version = current; version < migrations.length; version++) {
    transaction(db, () => {
      db.exec(migrations[version] ?? '');
      db.exec(`PRAGMA user_version = ${version + 1}`);
    });
  }
}

/** Runs fn inside the caller's transaction if there is one, else inside its own. */
export function atomically<T>(db: Database, fn: () => T): T {
  return db.isTransaction ? fn() : transaction(db, fn);
}

/** Runs fn inside one transaction: all of it is committed, or none of it. */
export function transaction<T>(db: Database, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const value = fn();
    db.exec('COMMIT');
    return value;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
