// Opens the agent's store for `run`, so that a damaged store never stops the monitoring: a store
// SQLite cannot read, one missing a table its schema version promises, one whose journal (WAL)
// is not a journal, or one emptied to 0 bytes beside its journal is set aside (renamed with a
// timestamp, kept for the user), the unsent results it still holds are copied into a fresh
// store, and the agent goes on, saying how many it could not recover when that can be told.
// The identity lives with the key (key-vault.ts), so nothing forces a re-enrollment.
import { DataDirError } from '../base/data-dir.ts';
import {
  journalFileOf,
  openDatabase,
  openDatabaseReadOnly,
  sqliteCode,
  sqliteCodes,
  transaction,
  type Database,
} from './database.ts';
import { migrations } from './migrations.ts';
import type { MetaKey } from './meta.ts';
import { setMeta } from './meta.ts';
const { closeSync, existsSync, openSync, readSync, renameSync, statSync } = process.getBuiltinModule('node:fs');
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');

export interface SetAside {
  /** Where the damaged store now is. */
  file: string;
  /** Unsent results copied from it into the new store. */
  recovered: number;
  /** Unsent results it held that could not be read; null when that cannot be told (a lost journal, a lost table). */
  unrecovered: number | null;
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
  let reason = journalProblem(file);
  if (reason === undefined) {
    try {
      const db = openDatabase(file);
      const problem = integrityProblem(db) ?? schemaProblem(db);
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
  // Results that lived only in a journal that is not one are gone, and nobody can count them.
  const journalLost = existsSync(journalFileOf(aside)) && journalProblem(aside) !== undefined;
  return {
    db,
    setAside: {
      file: aside,
      recovered: salvage.outbox.length,
      unrecovered: journalLost ? null : salvage.unrecovered,
      reason,
    },
  };
}

/** The WAL header's magic numbers (big-endian, the low bit the checksum byte order) and version. */
const walMagic = [0x377f0682, 0x377f0683];
const walVersion = 3007000;
const walHeaderBytes = 32;

/**
 * Damage SQLite itself would pass over in silence: a journal that is not one is ignored (with
 * every commit in it), and a store emptied to 0 bytes beside its journal opens as a new, empty
 * store. Both are found before SQLite opens the file.
 */
function journalProblem(file: string): string | undefined {
  const wal = journalFileOf(file);
  if (!existsSync(wal) || statSync(wal).size === 0) return undefined;
  if (existsSync(file) && statSync(file).size === 0) return 'the store file is empty beside its journal';
  const header = Buffer.alloc(walHeaderBytes);
  const fd = openSync(wal, 'r');
  try {
    if (readSync(fd, header, 0, walHeaderBytes, 0) < walHeaderBytes) return 'its journal is cut short';
  } finally {
    closeSync(fd);
  }
  const fine = walMagic.includes(header.readUInt32BE(0)) && header.readUInt32BE(4) === walVersion;
  return fine ? undefined : 'its journal is not a SQLite journal';
}

/** The tables the migrations create, from a scratch store in memory (one source: migrations.ts). */
let schemaTables: string[] | undefined;
function expectedTables(): string[] {
  if (schemaTables === undefined) {
    const scratch = new DatabaseSync(':memory:');
    for (const sql of migrations) scratch.exec(sql);
    schemaTables = tableNames(scratch);
    scratch.close();
  }
  return schemaTables;
}

const tableNames = (db: Database): string[] =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as unknown as {
      name: string;
    }[]
  ).map((r) => r.name);

/** A table its schema version promises is missing: every command that needs it would fail. */
function schemaProblem(db: Database): string | undefined {
  const present = new Set(tableNames(db));
  const missing = expectedTables().filter((name) => !present.has(name));
  return missing.length === 0 ? undefined : `missing table${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`;
}

/** quick_check reads every page: a store that opens but cannot be read through is damaged too. */
function integrityProblem(db: Database): string | undefined {
  const rows = db.prepare('PRAGMA quick_check(1)').all() as unknown as { quick_check: string }[];
  const first = rows[0]?.quick_check;
  return first === 'ok' ? undefined : `integrity check: ${first ?? 'no answer'}`;
}

/** Unreadable pages, not a database, or (while migrating) a table or column that is not there. */
const isDamaged = (error: unknown): boolean => {
  const code = sqliteCode(error);
  if (code === sqliteCodes.corrupt || code === sqliteCodes.notADatabase) return true;
  return code === sqliteCodes.error && /no such (table|column)/.test(error instanceof Error ? error.message : '');
};

const isReadOnly = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || sqliteCode(error) === sqliteCodes.readOnly;
};

/** Reads what SQLite still can, in id order, up to the first unreadable page. */
function salvageFrom(file: string): { outbox: OutboxCopy[]; meta: [MetaKey, string][]; unrecovered: number | null } {
  const outbox: OutboxCopy[] = [];
  const meta: [MetaKey, string][] = [];
  let held: number | null = null;
  let db: Database;
  try {
    db = openDatabaseReadOnly(file);
  } catch {
    return { outbox, meta, unrecovered: null };
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
    try {
      // How many it held, when its index pages still say: what the row-by-row read misses is lost.
      held = (db.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
    } catch {
      held = null;
    }
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
  return { outbox, meta, unrecovered: held === null ? null : Math.max(0, held - outbox.length) };
}
