// Durable key-value facts about this store: whose check set it holds, the sync cursor, the dropped
// count. What only a running agent knows is in live-state.json, not here.
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
  | 'dropped_results';

/**
 * Live state older versions kept here (clock skew, private definitions, load, a local-fault episode); it now travels in
 * live-state.json (live/live-state-file.ts), and rows left by an older version are removed.
 */
const retiredKeys = ['clock_skew_sec', 'private_definitions', 'load', 'local_fault'];

export function dropRetiredMeta(db: Database): void {
  db.prepare(`DELETE FROM meta WHERE key IN (${retiredKeys.map(() => '?').join(', ')})`).run(...retiredKeys);
}

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
