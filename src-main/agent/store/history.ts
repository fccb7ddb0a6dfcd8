// Recent results per check, as a fixed ring of slots per check (see the history table), written
// through a journal: a run's entry is appended to history_log in the commit of its result, and
// the journal is moved into the rings every few thousand runs, grouped by check, in steps the
// caller spreads over turns of the event loop (read/check-insight.ts, with the rollups' flush).
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

type HistoryRow = Omit<HistoryEntry, 'success' | 'skipped'> & { success: number; skipped: number };

/** SQLite keeps booleans as 0/1. */
export const fromHistoryRow = (r: HistoryRow): HistoryEntry => ({
  ...r,
  success: r.success === 1,
  skipped: r.skipped === 1,
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

/** A row as read with its sequence number, which orders a check's entries. */
type SeqRow = HistoryRow & { seq: number };

/**
 * A move under way: the journal up to `upTo`, its row ids read into groups per check, then
 * deleted. Only the ids are held (the rows are copied by SQLite itself): a move spans dozens of
 * turns of the event loop, and thousands of row objects held that long outlived V8's young
 * generation, each move adding ~2 MB to the old one at 1,000 runs a second (issue 26).
 */
interface Move {
  upTo: number;
  readTo: number;
  /** Each check's journal row ids left to write, in id (= run) order. */
  groups: Map<string, number[]>;
  phase: 'read' | 'write' | 'delete';
}

const columns = 'check_guid, ran_at, success, skipped, http_status, latency_ms, error';

export function createHistory(db: Database, slotsPerCheck: number, sizes = historyCompaction): History {
  // Next sequence number per check, read once from the ring and journal, then kept in memory.
  const nextSeq = new Map<string, number>();
  const maxSeqInRing = db.prepare('SELECT MAX(seq) AS seq FROM history WHERE check_guid = ?');
  const maxSeqWithJournal = db.prepare(
    'SELECT MAX(seq) AS seq FROM (SELECT seq FROM history WHERE check_guid = ? UNION ALL SELECT seq FROM history_log WHERE check_guid = ?)',
  );
  const append = db.prepare(`
    INSERT INTO history_log (check_guid, seq, ran_at, success, skipped, http_status, latency_ms, error)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const moveRow = db.prepare(`
    INSERT OR REPLACE INTO history (check_guid, slot, seq, ran_at, success, skipped, http_status, latency_ms, error)
    SELECT check_guid, seq % ?, seq, ran_at, success, skipped, http_status, latency_ms, error FROM history_log WHERE id = ?`);
  // UNION, not UNION ALL: while a move is under way an entry can be in both, identical.
  const recent = db.prepare(`
    SELECT ${columns}, seq FROM history WHERE check_guid = ?
    UNION SELECT ${columns}, seq FROM history_log WHERE check_guid = ?
    ORDER BY seq DESC LIMIT ?`);
  const readLog = db.prepare('SELECT id, check_guid FROM history_log WHERE id > ? AND id <= ? ORDER BY id LIMIT ?');
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

  const seqFor = (guid: string): number => {
    let seq = nextSeq.get(guid);
    if (seq === undefined) {
      const newest = foreignRows ? maxSeqWithJournal.get(guid, guid) : maxSeqInRing.get(guid);
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
      const rows = readLog.all(m.readTo, m.upTo, sizes.stepRows) as unknown as { id: number; check_guid: string }[];
      for (const row of rows) {
        const ids = m.groups.get(row.check_guid);
        if (ids === undefined) m.groups.set(row.check_guid, [row.id]);
        else ids.push(row.id);
      }
      m.readTo = rows.at(-1)?.id ?? m.upTo;
      if (rows.length < sizes.stepRows) m.phase = 'write';
      return true;
    }
    if (m.phase === 'write') {
      const slice: [string, number[]][] = [];
      for (const group of m.groups) {
        if (slice.length === sizes.stepChecks) break;
        slice.push(group);
      }
      transaction(db, () => {
        // A check's rows in run order: the newest of a slot is written last.
        for (const [, ids] of slice) for (const rowId of ids) moveRow.run(slotsPerCheck, rowId);
      });
      // Only once written: a refused write (a full disk) is tried again, never skipped.
      for (const [guid] of slice) m.groups.delete(guid);
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
        append.run(
          e.check_guid,
          seqFor(e.check_guid),
          e.ran_at,
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
      return (recent.all(guid, guid, limit) as unknown as SeqRow[]).map(({ seq: _seq, ...row }) => fromHistoryRow(row));
    },
    forget(guid) {
      transaction(db, () => {
        db.prepare('DELETE FROM history WHERE check_guid = ?').run(guid);
        const { changes } = db.prepare('DELETE FROM history_log WHERE check_guid = ?').run(guid);
        logRows = Math.max(0, logRows - Number(changes));
      });
      move?.groups.delete(guid);
      nextSeq.delete(guid);
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
    .prepare(`SELECT seq, ${columns} FROM history ORDER BY check_guid, slot`)
    .iterate() as Iterable<SeqRow>;
  let check: SeqRow[] = [];
  const inRunOrder = function* (): Generator<HistoryEntry> {
    check.sort((a, b) => a.seq - b.seq);
    for (const { seq: _seq, ...row } of check) yield fromHistoryRow(row);
  };
  for (const row of rows) {
    if (check.length > 0 && check[0]?.check_guid !== row.check_guid) {
      yield* inRunOrder();
      check = [];
    }
    check.push(row);
  }
  yield* inRunOrder();
}

/** The schema that added the journal (migrations.ts): an older store, read by `status`, has none. */
const journalSchema = 6;

/** Each row of `table` that is its check's newest (the ring's key finds them without a sort). */
const newestIn = (db: Database, table: 'history' | 'history_log'): SeqRow[] =>
  db
    .prepare(
      `SELECT seq, ${columns} FROM ${table}
       JOIN (SELECT check_guid, MAX(seq) AS seq FROM ${table} GROUP BY check_guid) USING (check_guid, seq)`,
    )
    .all() as unknown as SeqRow[];

/**
 * Each check's newest entry, from its ring and the journal, each read on its own: one query over
 * both as a union has no key to use, and took 2.9 s instead of 0.5 s for 6,000 checks with full
 * rings.
 */
export function newestEntries(db: Database): HistoryEntry[] {
  const journal = schemaVersion(db) < journalSchema ? [] : newestIn(db, 'history_log');
  const newest = new Map<string, SeqRow>();
  for (const row of [...newestIn(db, 'history'), ...journal]) {
    const kept = newest.get(row.check_guid);
    if (kept === undefined || row.seq > kept.seq) newest.set(row.check_guid, row);
  }
  return [...newest.values()].map(({ seq: _seq, ...row }) => fromHistoryRow(row));
}
