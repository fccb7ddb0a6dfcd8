// How many results the bench's server holds (server-process.ts answers "stored" with it). The
// soak asks at every line, every 5 s with BENCH_SOAK_STEP_S=5, and `count(*)` walked the whole
// table each time: 36 ms of the server's only thread at the 1.68 M rows of a soak's minute 30
// (20 ms at 1 M, 1.4 ms at 0.1 M), a cost that grew with the soak it was measuring and held the
// agent's uploads back while it ran. The reference server never deletes a result, and `seq` is
// the table's rowid, which SQLite gives each inserted row as the largest one plus one (a retried
// result, ignored on conflict, inserts nothing and takes none): so the largest `seq` is the
// count, and SQLite finds it at the end of the table's b-tree.
import type { DatabaseSync } from 'node:sqlite';

/** Kept bare (no coalesce around it) so that SQLite's min/max shortcut applies. */
export const storedResultsSql = 'SELECT max(seq) AS n FROM results';

export function storedResults(db: DatabaseSync): () => number {
  const query = db.prepare(storedResultsSql);
  return () => (query.get() as { n: number | null } | undefined)?.n ?? 0;
}
