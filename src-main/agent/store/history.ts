// Recent results per check, as a fixed ring of slots per check (see the history table), written
// through a journal: a run's entry is appended to history_log in the commit of its result, and
// the journal is moved into the rings every few thousand runs, grouped by check, in steps the
// caller spreads over turns of the event loop (read/check-insight.ts, with the rollups' flush).
// Rows hold the check's key (check-keys.ts) and the run's time in ms; entries carry guid and ISO.
import { checkKeys, withGuids } from './check-keys.ts';
import { schemaVersion, transaction, type Database } from './database.ts';

export interface HistoryEntry {
  check_guid: string;
  ran_at: string;
  success: boolean;
  skipped: boolean;
  http_status: number;
  latency_ms: number;
  error: string;
}

/** A row as stored: SQLite keeps booleans as 0/1, and the run's time as ms since the epoch. */
interface HistoryRow {
  seq: number;
  ran_at: number;
  success: number;
  skipped: number;
  http_status: number;
  latency_ms: number;
  error: string;
}

const fromHistoryRow = (guid: string, r: Omit<HistoryRow, 'ran_at'> & { ran_at: number | string }): HistoryEntry => ({
  check_guid: guid,
  ran_at: typeof r.ran_at === 'string' ? r.ran_at : new Date(r.ran_at).toISOString(),
  success: r.success === 1,
  skipped: r.skipped === 1,
  http_status: r.http_status,
  latency_ms: r.latency_ms,
  error: r.error,
});

export interface History {
  /** Writes entries (to the journal); call inside the caller's transaction. */
  insert(entries: readonly HistoryEntry[]): void;
  /** The newest entries of a check, newest first, journal included. */
  recent(guid: string, limit: number): HistoryEntry[];
  forget(guid: string): void;
  /** Whether the journal holds enough to be worth moving into the rings now, or a move is under way. */
  compactionDue(): boolean;
  /**
   * One bounded step of moving the journal into the rings (a read, a slice of checks or a
   * delete, each its own transaction); returns whether steps are left. Crash-safe at any point:
   * moving an entry twice writes the same row.
   */
  compactStep(): boolean;
  /** Moves the whole journal into the rings now (start-up, stop, tests). */
  compactAll(): void;
}

/** How the journal is moved into the rings: sizes of the steps, and when a move starts. */
export const historyCompaction = {
  /**
   * A move starts once the journal holds this many entries per check seen (at least min, at
   * most max): each check's ring page is then rewritten once for ~8 runs instead of once a
   * run, and the journal stays small enough that a window's read of it is a few ms.
   */
  entriesPerCheck: 8,
  minRows: 2_000,
  maxRows: 16_000,
  /**
   * Journal rows read, or deleted, per step, and checks whose entries are written into their
   * rings per step (~1 page each): each step a few ms, so that a move never holds the runs due
   * meanwhile (2,000 rows took 4-31 ms to read at 2,445 runs a second on two busy cores).
   */
  stepRows: 500,
  stepChecks: 64,
};

/**
 * A move under way: the journal up to `upTo`, its row ids read into groups per check, then
 * deleted. Only the ids are held (the rows are copied by SQLite itself): a move spans dozens of
 * turns of the event loop, and thousands of row objects held that long outlived V8's young
 * generation, each move adding ~2 MB to the old one at 1,000 runs a second (issue 26).
 */
interface Move {
  upTo: number;
  readTo: number;
  /** Each check's journal row ids left to write, in id (= run) order, by check key. */
  groups: Map<number, number[]>;
  phase: 'read' | 'write' | 'delete';
}

/** Every column of a row but the check's key. */
const columns = 'seq, ran_at, success, skipped, http_status, latency_ms, error';

export function createHistory(db: Database, slotsPerCheck: number, sizes = historyCompaction): History {
  const keys = checkKeys(db);
  // Next sequence number per check, read once from the ring and journal, then kept in memory.
  const nextSeq = new Map<string, number>();
  const maxSeqInRing = db.prepare('SELECT MAX(seq) AS seq FROM history WHERE check_id = ?');
  const maxSeqWithJournal = db.prepare(
    'SELECT MAX(seq) AS seq FROM (SELECT seq FROM history WHERE check_id = ? UNION ALL SELECT seq FROM history_log WHERE check_id = ?)',
  );
  const append = db.prepare(`
    INSERT INTO history_log (check_id, ${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const moveRow = db.prepare(`
    INSERT OR REPLACE INTO history (check_id, slot, ${columns})
    SELECT check_id, seq % ?, ${columns} FROM history_log WHERE id = ?`);
  // UNION, not UNION ALL: while a move is under way an entry can be in both, identical.
  const recent = db.prepare(`
    SELECT ${columns} FROM history WHERE check_id = ?
    UNION SELECT ${columns} FROM history_log WHERE check_id = ?
    ORDER BY seq DESC LIMIT ?`);
  const readLog = db.prepare('SELECT id, check_id FROM history_log WHERE id > ? AND id <= ? ORDER BY id LIMIT ?');
  // The oldest rows first, by count: ids only grow while runs keep coming, so steps over the id
  // range from 0 would be mostly empty after a day of runs.
  const deleteLog = db.prepare(
    'DELETE FROM history_log WHERE id IN (SELECT id FROM history_log WHERE id <= ? ORDER BY id LIMIT ?)',
  );
  let logRows = (db.prepare('SELECT COUNT(*) AS n FROM history_log').get() as { n: number }).n;
  let move: Move | undefined;
  /**
   * Whether the journal may hold entries of a check this process has not numbered yet: only rows
   * from before it opened the store (a move cut short). Until a move has taken them, a check's
   * first sequence number looks there too; after, the journal is not scanned (it has no index by
   * check, and a sync that adds thousands of checks would scan it once for each).
   */
  let foreignRows = logRows > 0;

  const seqFor = (guid: string, key: number): number => {
    let seq = nextSeq.get(guid);
    if (seq === undefined) {
      const newest = foreignRows ? maxSeqWithJournal.get(key, key) : maxSeqInRing.get(key);
      seq = ((newest as { seq: number | null }).seq ?? -1) + 1;
    }
    nextSeq.set(guid, seq + 1);
    return seq;
  };

  const dueAt = (): number => Math.min(sizes.maxRows, Math.max(sizes.minRows, sizes.entriesPerCheck * nextSeq.size));

  function compactStep(): boolean {
    if (move === undefined) {
      if (logRows === 0) return false;
      const { id } = db.prepare('SELECT MAX(id) AS id FROM history_log').get() as { id: number | null };
      if (id === null) {
        logRows = 0;
        return false;
      }
      move = { upTo: id, readTo: 0, groups: new Map(), phase: 'read' };
    }
    const m = move;
    if (m.phase === 'read') {
      const rows = readLog.all(m.readTo, m.upTo, sizes.stepRows) as unknown as { id: number; check_id: number }[];
      for (const row of rows) {
        const ids = m.groups.get(row.check_id);
        if (ids === undefined) m.groups.set(row.check_id, [row.id]);
        else ids.push(row.id);
      }
      m.readTo = rows.at(-1)?.id ?? m.upTo;
      if (rows.length < sizes.stepRows) m.phase = 'write';
      return true;
    }
    if (m.phase === 'write') {
      const slice: [number, number[]][] = [];
      for (const group of m.groups) {
        if (slice.length === sizes.stepChecks) break;
        slice.push(group);
      }
      transaction(db, () => {
        // A check's rows in run order: the newest of a slot is written last.
        for (const [, ids] of slice) for (const rowId of ids) moveRow.run(slotsPerCheck, rowId);
      });
      // Only once written: a refused write (a full disk) is tried again, never skipped.
      for (const [key] of slice) m.groups.delete(key);
      if (m.groups.size === 0) m.phase = 'delete';
      return true;
    }
    const deleted = Number(deleteLog.run(m.upTo, sizes.stepRows).changes);
    logRows = Math.max(0, logRows - deleted);
    if (deleted === sizes.stepRows) return true;
    move = undefined;
    foreignRows = false;
    return false;
  }

  return {
    insert(entries) {
      for (const e of entries) {
        const key = keys.keyOf(e.check_guid);
        append.run(
          key,
          seqFor(e.check_guid, key),
          // A time that does not parse (none does: result-builder writes toISOString) is kept as
          // the epoch rather than failing the commit that also stores the run's result.
          Date.parse(e.ran_at) || 0,
          e.success ? 1 : 0,
          e.skipped ? 1 : 0,
          e.http_status,
          e.latency_ms,
          e.error,
        );
      }
      logRows += entries.length;
    },
    recent(guid, limit) {
      const key = keys.knownKey(guid);
      if (key === undefined) return [];
      return (recent.all(key, key, limit) as unknown as HistoryRow[]).map((row) => fromHistoryRow(guid, row));
    },
    forget(guid) {
      nextSeq.delete(guid);
      const key = keys.knownKey(guid);
      if (key === undefined) return;
      transaction(db, () => {
        db.prepare('DELETE FROM history WHERE check_id = ?').run(key);
        const { changes } = db.prepare('DELETE FROM history_log WHERE check_id = ?').run(key);
        logRows = Math.max(0, logRows - Number(changes));
      });
      move?.groups.delete(key);
    },
    compactionDue: () => move !== undefined || logRows >= dueAt(),
    compactStep,
    compactAll() {
      while (compactStep());
    },
  };
}

/**
 * Every kept entry, oldest first per check, streamed one check at a time: rebuilding the
 * in-memory figures at start-up must not hold thousands of checks' whole history in memory at
 * once. Rows come in primary-key order (a check's slots together) and each check's few hundred
 * are put in run order here, so no index on seq is needed (see migrations.ts).
 */
export function* allHistory(db: Database): Generator<HistoryEntry> {
  const rows = db
    .prepare(`SELECT k.guid AS guid, ${columns} FROM ${withGuids('history')} ORDER BY check_id, slot`)
    .iterate() as Iterable<StoredRow>;
  let check: StoredRow[] = [];
  const inRunOrder = function* (): Generator<HistoryEntry> {
    check.sort((a, b) => a.seq - b.seq);
    for (const row of check) yield fromHistoryRow(row.guid, row);
  };
  for (const row of rows) {
    if (check.length > 0 && check[0]?.guid !== row.guid) {
      yield* inRunOrder();
      check = [];
    }
    check.push(row);
  }
  yield* inRunOrder();
}

/**
 * The schemas that added the journal and that keyed the history by check key (migrations.ts):
 * `status` reads the store of a running agent, which may be an older version.
 */
const journalSchema = 6;
const keyedSchema = 7;

/** A row with its check's guid; an older store's time is its ISO text. */
type StoredRow = Omit<HistoryRow, 'ran_at'> & { guid: string; ran_at: number | string };

/** Each row of `table` that is its check's newest (the ring's key finds them without a sort). */
function newestIn(db: Database, table: 'history' | 'history_log', keyed: boolean): StoredRow[] {
  const [key, guid, rows] = keyed ? ['check_id', 'k.guid', withGuids(table)] : ['check_guid', 'check_guid', table];
  return db
    .prepare(
      `SELECT ${columns}, ${guid} AS guid FROM ${rows}
       JOIN (SELECT ${key}, MAX(seq) AS seq FROM ${table} GROUP BY ${key}) USING (${key}, seq)`,
    )
    .all() as unknown as StoredRow[];
}

/**
 * Each check's newest entry, from its ring and the journal, each read on its own: one query over
 * both as a union has no key to use, and took 2.9 s instead of 0.5 s for 6,000 checks with full
 * rings.
 */
export function newestEntries(db: Database): HistoryEntry[] {
  const schema = schemaVersion(db);
  const keyed = schema >= keyedSchema;
  const journal = schema < journalSchema ? [] : newestIn(db, 'history_log', keyed);
  const newest = new Map<string, StoredRow>();
  for (const row of [...newestIn(db, 'history', keyed), ...journal]) {
    const kept = newest.get(row.guid);
    if (kept === undefined || row.seq > kept.seq) newest.set(row.guid, row);
  }
  return [...newest.values()].map((row) => fromHistoryRow(row.guid, row));
}
