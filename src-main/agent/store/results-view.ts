// Read-only views over results, outages and the outbox that the status command and UI show.
import type { Database } from './database.ts';
import { newestEntries, type HistoryEntry } from './history.ts';

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

/** Each check's newest entry (store/history.ts reads the ring and the journal). */
export function lastResults(db: Database): Map<string, LastResult> {
  return new Map(newestEntries(db).map(({ check_guid, ...last }) => [check_guid, last]));
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
