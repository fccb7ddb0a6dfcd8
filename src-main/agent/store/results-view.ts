// Read-only views over results, outages and the outbox that the status command and UI show.
import { schemaVersion, type Database } from './database.ts';
import { fromHistoryRow, type HistoryEntry } from './history.ts';

export type LastResult = Omit<HistoryEntry, 'check_guid'>;

export interface OutageRecord {
  started_at: string;
  ended_at: string | null;
  duration_sec: number | null;
}

/**
 * An outage's length in whole seconds, from its stored ISO start to its end: the one rule for
 * the window's list, `status --json` and MonitorStatus last_outage_sec (a clock stepped back
 * mid-outage gives 0, never a negative length).
 */
export const outageSeconds = (startedAt: string, endedAt: string): number =>
  Math.max(0, Math.round((Date.parse(endedAt) - Date.parse(startedAt)) / 1000));

/** The schema that added the history's journal (migrations.ts). */
const journalSchema = 6;

/** Each row of `table` that is its check's newest (the ring's key finds them without a sort). */
const newestIn = (
  db: Database,
  table: 'history' | 'history_log',
): (Parameters<typeof fromHistoryRow>[0] & { seq: number })[] =>
  db
    .prepare(
      `SELECT h.check_guid, h.seq, h.ran_at, h.success, h.skipped, h.http_status, h.latency_ms, h.error
       FROM ${table} h JOIN (SELECT check_guid, MAX(seq) AS seq FROM ${table} GROUP BY check_guid) last
       ON h.check_guid = last.check_guid AND h.seq = last.seq`,
    )
    .all() as unknown as (Parameters<typeof fromHistoryRow>[0] & { seq: number })[];

/**
 * Each check's newest entry, from its ring and the history's journal (store/history.ts), each
 * read on its own: one query over both as a union has no key to use, and took 2.9 s instead of
 * 0.5 s for 6,000 checks with full rings.
 */
export function lastResults(db: Database): Map<string, LastResult> {
  const journal = schemaVersion(db) < journalSchema ? [] : newestIn(db, 'history_log');
  const newest = new Map<string, Parameters<typeof fromHistoryRow>[0] & { seq: number }>();
  for (const row of [...newestIn(db, 'history'), ...journal]) {
    const kept = newest.get(row.check_guid);
    if (kept === undefined || row.seq > kept.seq) newest.set(row.check_guid, row);
  }
  return new Map(
    [...newest.values()].map(({ seq: _seq, ...r }) => {
      const { check_guid, ...last } = fromHistoryRow(r);
      return [check_guid, last];
    }),
  );
}

export function unsentCount(db: Database): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
}

/** Unsent results per monitor id (schema 2 and later). */
export function unsentPerMonitor(db: Database): { monitor_id: string; n: number }[] {
  return db.prepare('SELECT monitor_id, COUNT(*) AS n FROM outbox GROUP BY monitor_id').all() as unknown as {
    monitor_id: string;
    n: number;
  }[];
}

export function outageHistory(db: Database, limit = 100): OutageRecord[] {
  const rows = db
    .prepare('SELECT started_at, ended_at FROM outages ORDER BY id DESC LIMIT ?')
    .all(limit) as unknown as {
    started_at: string;
    ended_at: string | null;
  }[];
  return rows.map((r) => ({
    started_at: r.started_at,
    ended_at: r.ended_at,
    duration_sec: r.ended_at === null ? null : outageSeconds(r.started_at, r.ended_at),
  }));
}
