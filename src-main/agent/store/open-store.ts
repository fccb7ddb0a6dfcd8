// Opens the agent's store for `run`, so that a damaged store never stops the monitoring: a store
// SQLite cannot read is set aside (renamed with a timestamp, kept for the user), the unsent
// results it still holds are copied into a fresh store, and the agent goes on. The identity
// lives with the key (key-vault.ts), so nothing forces a re-enrollment.
import { existsSync, renameSync, statSync } from 'node:fs';
import { DataDirError } from '../identity/data-dir.ts';
import { openDatabase, openDatabaseReadOnly, sqliteCode, sqliteCodes, transaction, type Database } from './database.ts';
import type { MetaKey } from './meta.ts';
import { setMeta } from './meta.ts';

export interface SetAside {
  /** Where the damaged store now is. */
  file: string;
  /** Unsent results copied from it into the new store. */
  recovered: number;
  /** What SQLite said about it. */
  reason: string;
}

export interface OpenedStore {
  db: Database;
  setAside?: SetAside;
}

/** Facts worth carrying over: an older version's identity (migrated to the vault) and a counter. */
const carriedMeta: readonly MetaKey[] = ['monitor_id', 'server_url', 'enrollment', 'dropped_results'];

interface OutboxCopy {
  check_guid: string;
  ran_at: string;
  payload: string;
  bytes: number;
  monitor_id: string;
}

/**
 * The store must be a regular file (or not there yet): SQLite opening a FIFO blocks in open()
 * for ever, beyond the reach of SIGTERM, and a folder or device is no store to set aside.
 */
export function assertStoreIsFile(file: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    return; // Not there (SQLite creates it) or not reachable (opening says why).
  }
  if (!isFile)
    throw new DataDirError(
      `the store ${file} is not a regular file (a folder, device or pipe); move it away, or choose another --data-dir`,
      'unusable',
    );
}

export function openStore(file: string, now: Date): OpenedStore {
  assertStoreIsFile(file);
  let reason: string;
  try {
    const db = openDatabase(file);
    const problem = integrityProblem(db);
    if (problem === undefined) return { db };
    db.close();
    reason = problem;
  } catch (error) {
    if (isReadOnly(error)) {
      throw new DataDirError(
        `the store ${file} is read-only; make it and its folder writable for this user, or choose another --data-dir`,
        'read-only',
      );
    }
    if (!isDamaged(error)) throw error;
    reason = error instanceof Error ? error.message : String(error);
  }
  const aside = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${aside}${suffix}`);
  const salvage = salvageFrom(aside);
  const db = openDatabase(file);
  transaction(db, () => {
    const insert = db.prepare(
      'INSERT INTO outbox (check_guid, ran_at, payload, bytes, monitor_id) VALUES (?, ?, ?, ?, ?)',
    );
    for (const row of salvage.outbox) insert.run(row.check_guid, row.ran_at, row.payload, row.bytes, row.monitor_id);
    for (const [key, value] of salvage.meta) setMeta(db, key, value);
  });
  return { db, setAside: { file: aside, recovered: salvage.outbox.length, reason } };
}

/** quick_check reads every page: a store that opens but cannot be read through is damaged too. */
function integrityProblem(db: Database): string | undefined {
  const rows = db.prepare('PRAGMA quick_check(1)').all() as unknown as { quick_check: string }[];
  const first = rows[0]?.quick_check;
  return first === 'ok' ? undefined : `integrity check: ${first ?? 'no answer'}`;
}

const isDamaged = (error: unknown): boolean => {
  const code = sqliteCode(error);
  return code === sqliteCodes.corrupt || code === sqliteCodes.notADatabase;
};

const isReadOnly = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || sqliteCode(error) === sqliteCodes.readOnly;
};

/** Reads what SQLite still can, in id order, up to the first unreadable page. */
function salvageFrom(file: string): { outbox: OutboxCopy[]; meta: [MetaKey, string][] } {
  const outbox: OutboxCopy[] = [];
  const meta: [MetaKey, string][] = [];
  let db: Database;
  try {
    db = openDatabaseReadOnly(file);
  } catch {
    return { outbox, meta };
  }
  try {
    for (const key of carriedMeta) {
      try {
        const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
        if (row !== undefined) meta.push([key, row.value]);
      } catch {
        break;
      }
    }
    const hasMonitorColumn = (() => {
      try {
        return (
          (
            db.prepare("SELECT COUNT(*) AS n FROM pragma_table_info('outbox') WHERE name = 'monitor_id'").get() as {
              n: number;
            }
          ).n > 0
        );
      } catch {
        return false;
      }
    })();
    const select = db.prepare(
      `SELECT check_guid, ran_at, payload, bytes, ${hasMonitorColumn ? 'monitor_id' : "COALESCE(json_extract(payload, '$.monitor_id'), '') AS monitor_id"}
       FROM outbox ORDER BY id`,
    );
    // Row by row: everything before the first unreadable page is kept.
    for (const row of select.iterate()) outbox.push(row as unknown as OutboxCopy);
  } catch {
    // The rest is unreadable: what was read is kept.
  } finally {
    db.close();
  }
  return { outbox, meta };
}
