// Small key-value facts about this store: whose check set it holds, the sync cursor, counters,
// and (until they move to one live-state file, issue 23) a few facts the running agent publishes
// for `status --json`.
import type { Database } from './database.ts';

export type MetaKey =
  /** Identity of versions before it moved to the key vault; read once to migrate it. */
  | 'monitor_id'
  | 'server_url'
  | 'enrollment'
  /** "<monitor id> <enrolled_at>" whose check set and cursor the store holds. */
  | 'store_owner'
  | 'sync_cursor'
  | 'last_sync_at'
  | 'dropped_results'
  /** Server clock minus local clock in seconds at the last API answer, for `status --json`. */
  | 'clock_skew_sec'
  /** JSON of the private definitions file's state (checks/private-definitions/summary.ts), for `status --json`. */
  | 'private_definitions'
  /** JSON of the running agent's load (live/load-state.ts), for `status --json`. */
  | 'load'
  /** JSON of the running agent's local-fault episode (health/local-faults.ts), for `status --json`. */
  | 'local_fault';

export function getMeta(db: Database, key: MetaKey): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Database, key: MetaKey, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}

export function deleteMeta(db: Database, key: MetaKey): void {
  db.prepare('DELETE FROM meta WHERE key = ?').run(key);
}

/** Adds to the count of results lost to a bound (the outbox's, or memory's while the disk was full). */
export function addDropped(db: Database, n: number): void {
  setMeta(db, 'dropped_results', String(Number(getMeta(db, 'dropped_results') ?? '0') + n));
}
