// Each check's small integer key in the store (the check_keys table): the rollups' rows and the
// history's are many, and a guid in each made them several times larger (a 36-character guid
// in a history row of ~100 bytes, issue 26). One table and one cache for both, per store.
import { onRollback, type Database } from './database.ts';

export interface CheckKeys {
  /** The check's key, made on first use (inside the caller's transaction, if one is open). */
  keyOf(guid: string): number;
  /** The check's key if it has one; never makes one. */
  knownKey(guid: string): number | undefined;
}

const perStore = new WeakMap<Database, CheckKeys>();

/** SQL: the rows of `table` (keyed by check_id) with their check's guid, as `k.guid`. */
export const withGuids = (table: string): string => `${table} JOIN check_keys k ON k.id = ${table}.check_id`;

/**
 * The store's check keys. A key is never deleted nor reused: forgetting a check deletes its rows
 * wherever they are, in any order, and a key made again for another check can never meet rows
 * left by an earlier one.
 */
export function checkKeys(db: Database): CheckKeys {
  const known = perStore.get(db);
  if (known !== undefined) return known;
  const cache = new Map<string, number>();
  const find = db.prepare('SELECT id FROM check_keys WHERE guid = ?');
  const add = db.prepare('INSERT INTO check_keys (guid) VALUES (?)');
  const knownKey = (guid: string): number | undefined => {
    let id = cache.get(guid);
    if (id === undefined) {
      id = (find.get(guid) as { id: number } | undefined)?.id;
      if (id !== undefined) cache.set(guid, id);
    }
    return id;
  };
  const keys: CheckKeys = {
    knownKey,
    keyOf(guid) {
      const id = knownKey(guid);
      if (id !== undefined) return id;
      const made = Number(add.run(guid).lastInsertRowid);
      cache.set(guid, made);
      // A rolled-back transaction takes the row back; the key is then made again on next use.
      onRollback(db, () => cache.delete(guid));
      return made;
    },
  };
  perStore.set(db, keys);
  return keys;
}
