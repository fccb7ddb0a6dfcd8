// Recent results per check, as a fixed ring of slots per check (see the history table).
import type { Database } from './database.ts';

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
  /** Writes entries; call inside the caller's transaction. */
  insert(entries: readonly HistoryEntry[]): void;
  /** The newest entries of a check, newest first. */
  recent(guid: string, limit: number): HistoryEntry[];
  forget(guid: string): void;
}

export function createHistory(db: Database, slotsPerCheck: number): History {
  // Next sequence number per check, read once from the table and then kept in memory.
  const nextSeq = new Map<string, number>();
  const maxSeq = db.prepare('SELECT MAX(seq) AS seq FROM history WHERE check_guid = ?');
  const upsert = db.prepare(`
    INSERT OR REPLACE INTO history (check_guid, slot, seq, ran_at, success, skipped, http_status, latency_ms, error)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const recent = db.prepare(`
    SELECT check_guid, ran_at, success, skipped, http_status, latency_ms, error
    FROM history WHERE check_guid = ? ORDER BY seq DESC LIMIT ?`);

  const seqFor = (guid: string): number => {
    let seq = nextSeq.get(guid);
    if (seq === undefined) seq = ((maxSeq.get(guid) as { seq: number | null }).seq ?? -1) + 1;
    nextSeq.set(guid, seq + 1);
    return seq;
  };

  return {
    insert(entries) {
      for (const e of entries) {
        const seq = seqFor(e.check_guid);
        upsert.run(
          e.check_guid,
          seq % slotsPerCheck,
          seq,
          e.ran_at,
          e.success ? 1 : 0,
          e.skipped ? 1 : 0,
          e.http_status,
          e.latency_ms,
          e.error,
        );
      }
    },
    recent(guid, limit) {
      return (recent.all(guid, limit) as unknown as HistoryRow[]).map(fromHistoryRow);
    },
    forget(guid) {
      db.prepare('DELETE FROM history WHERE check_guid = ?').run(guid);
      nextSeq.delete(guid);
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
    .prepare(
      'SELECT check_guid, seq, ran_at, success, skipped, http_status, latency_ms, error FROM history ORDER BY check_guid, slot',
    )
    .iterate() as Iterable<HistoryRow & { seq: number }>;
  let check: (HistoryRow & { seq: number })[] = [];
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
