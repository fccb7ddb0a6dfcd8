// The server's SQLite database (node:sqlite, WAL) and the helpers that read typed values out of
// its untyped rows. One schema version; a file from a different version is refused rather than
// silently misread.
import { DatabaseSync } from 'node:sqlite';
import type { SQLOutputValue } from 'node:sqlite';

const schemaVersion = '1';

// Instants that drive sync (`updated_us`, `changed_us`, `ran_at_us`) are integer microseconds;
// the rest are ISO strings for readability. A check's wire fields live as one JSON document,
// because the server never queries inside a definition.
const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS organizations (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, auto_assign INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
  id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('org', 'platform')),
  org_id TEXT REFERENCES organizations (id), label TEXT,
  created_at TEXT NOT NULL, expires_us INTEGER, revoked_at TEXT);
CREATE TABLE IF NOT EXISTS monitors (
  id TEXT PRIMARY KEY, org_id TEXT REFERENCES organizations (id),
  name TEXT NOT NULL, region TEXT NOT NULL, country TEXT NOT NULL, city TEXT NOT NULL,
  key_hash TEXT UNIQUE, enrolled INTEGER NOT NULL, disabled INTEGER NOT NULL,
  token_id TEXT, enrolled_at TEXT NOT NULL, last_seen_at TEXT);
CREATE TABLE IF NOT EXISTS checks (
  guid TEXT PRIMARY KEY, org_id TEXT REFERENCES organizations (id),
  deleted INTEGER NOT NULL, private_definition INTEGER NOT NULL,
  definition TEXT NOT NULL, updated_us INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS assignments (
  check_guid TEXT NOT NULL REFERENCES checks (guid),
  monitor_id TEXT NOT NULL REFERENCES monitors (id),
  assigned INTEGER NOT NULL, changed_us INTEGER NOT NULL,
  PRIMARY KEY (monitor_id, check_guid));
CREATE TABLE IF NOT EXISTS results (
  seq INTEGER PRIMARY KEY, monitor_id TEXT NOT NULL, check_guid TEXT NOT NULL,
  org_id TEXT, ran_at TEXT NOT NULL, ran_at_us INTEGER NOT NULL,
  success INTEGER NOT NULL, http_status INTEGER NOT NULL, latency_ms INTEGER NOT NULL,
  error TEXT, response_sample TEXT, received_at TEXT NOT NULL,
  UNIQUE (monitor_id, check_guid, ran_at_us));
CREATE TABLE IF NOT EXISTS statuses (
  seq INTEGER PRIMARY KEY, monitor_id TEXT NOT NULL, body TEXT NOT NULL, received_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS statuses_by_monitor ON statuses (monitor_id, seq);
`;

/** Opens (creating if needed) the database; `undefined` or ':memory:' keeps it in memory. */
export function openDatabase(path: string | undefined): DatabaseSync {
  const db = new DatabaseSync(path ?? ':memory:', { enableForeignKeyConstraints: true });
  if (path !== undefined && path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec(schema);
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get();
  if (!row) {
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(schemaVersion);
  } else if (row.value !== schemaVersion) {
    db.close();
    throw new Error(
      `database ${path ?? ''} has schema version ${String(row.value)}, expected ${schemaVersion}: use a new file`,
    );
  }
  return db;
}

/** Runs `fn` in one transaction, so a batch is stored whole or not at all. */
export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
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

export type Row = Record<string, SQLOutputValue>;

export function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new Error(`column ${column}: expected text`);
  return value;
}

export function optionalText(row: Row, column: string): string | undefined {
  const value = row[column];
  return typeof value === 'string' ? value : undefined;
}

export function int(row: Row, column: string): number {
  const value = row[column];
  if (typeof value !== 'number') throw new Error(`column ${column}: expected integer`);
  return value;
}

export function optionalInt(row: Row, column: string): number | undefined {
  const value = row[column];
  return typeof value === 'number' ? value : undefined;
}

export function flag(row: Row, column: string): boolean {
  return int(row, column) !== 0;
}
