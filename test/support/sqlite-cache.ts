import type { Database } from '../../src-main/agent/store/database.ts';

/** The page cache's size as SQLite itself holds it, in KiB (the pragma reads a KiB size negative). */
export const sqliteCacheKib = (db: Database): number =>
  -(db.prepare('PRAGMA cache_size').get() as { cache_size: number }).cache_size;
