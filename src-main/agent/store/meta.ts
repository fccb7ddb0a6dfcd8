// Small key-value facts about this agent: identity, server, sync cursor, counters.
import type { Database } from './database.ts';

export type MetaKey =
  | 'monitor_id'
  | 'server_url'
  | 'enrollment'
  | 'sync_cursor'
  | 'last_sync_at'
  | 'dropped_results'
  /** JSON array of the guids the private definitions file defines, for `status --json`. */
  | 'private_definitions'
  /** JSON of the running agent's load (load-state.ts), for `status --json`. */
  | 'load';

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
