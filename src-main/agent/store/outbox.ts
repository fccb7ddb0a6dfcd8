// The durable outbox: every result is committed here before anything else sees it, and leaves
// only when the server has answered 200 for it (or it is set aside as rejected, or the bound
// forces the oldest out, which is counted).
import type { WireResult } from '../wire/schemas.ts';
import { atomically, type Database } from './database.ts';
import { getMeta, setMeta } from './meta.ts';

export interface OutboxLimits {
  maxCount: number;
  maxBytes: number;
}

export interface OutboxRow {
  id: number;
  check_guid: string;
  ran_at: string;
  payload: string;
  bytes: number;
}

export interface RejectedResult {
  check_guid: string;
  ran_at: string;
  reason: string;
  rejected_at: string;
}

export interface Outbox {
  /** Inserts results; call inside the caller's transaction so history and outbox commit together. */
  insert(results: readonly WireResult[]): void;
  /** Drops the oldest rows while over the bound; call inside the same transaction. */
  enforceBound(): number;
  /** The oldest rows, in order, at most maxCount of them and at most maxBytes of payload. */
  peek(maxCount: number, maxBytes: number): OutboxRow[];
  /** Removes delivered rows. */
  remove(ids: readonly number[]): void;
  /** Moves one row to the rejected list with the server's reason. */
  reject(row: OutboxRow, reason: string, at: Date): void;
  count(): number;
  bytes(): number;
  oldestRanAt(): string | undefined;
  /** Results dropped by the bound since the data folder was created. */
  dropped(): number;
  rejected(limit?: number): RejectedResult[];
  rejectedCount(): number;
  perCheck(): Map<string, number>;
}

export function createOutbox(db: Database, limits: OutboxLimits): Outbox {
  const totals = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM outbox').get() as { n: number; b: number };
  // Kept in memory so that a commit does not scan the table; the outbox has one writer.
  let count = totals.n;
  let bytes = totals.b;
  const insert = db.prepare('INSERT INTO outbox (check_guid, ran_at, payload, bytes) VALUES (?, ?, ?, ?)');
  const chunkAfter = db.prepare('SELECT id, bytes FROM outbox WHERE id > ? ORDER BY id LIMIT 1000');
  const deleteUpTo = db.prepare('DELETE FROM outbox WHERE id <= ?');
  const rangeTotals = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM outbox WHERE id BETWEEN ? AND ?');
  const deleteRange = db.prepare('DELETE FROM outbox WHERE id BETWEEN ? AND ?');
  const peek = db.prepare('SELECT id, check_guid, ran_at, payload, bytes FROM outbox ORDER BY id LIMIT ?');

  return {
    insert(results) {
      for (const result of results) {
        const payload = JSON.stringify(result);
        const size = Buffer.byteLength(payload);
        insert.run(result.check_guid, result.ran_at, payload, size);
        count++;
        bytes += size;
      }
    },
    enforceBound() {
      let drop = 0;
      let dropBytes = 0;
      let lastId = 0;
      const over = (): boolean => count - drop > limits.maxCount || bytes - dropBytes > limits.maxBytes;
      while (over()) {
        const rows = chunkAfter.all(lastId) as unknown as { id: number; bytes: number }[];
        if (rows.length === 0) break;
        for (const row of rows) {
          if (!over()) break;
          drop++;
          dropBytes += row.bytes;
          lastId = row.id;
        }
      }
      if (drop === 0) return 0;
      deleteUpTo.run(lastId);
      count -= drop;
      bytes -= dropBytes;
      setMeta(db, 'dropped_results', String(Number(getMeta(db, 'dropped_results') ?? '0') + drop));
      return drop;
    },
    peek(maxCount, maxBytes) {
      const rows = peek.all(maxCount) as unknown as OutboxRow[];
      const out: OutboxRow[] = [];
      let size = 0;
      for (const row of rows) {
        if (out.length > 0 && size + row.bytes > maxBytes) break;
        out.push(row);
        size += row.bytes;
      }
      return out;
    },
    remove(ids) {
      // One transaction, one range per run of consecutive ids (a delivered batch is usually one):
      // a row at a time in autocommit cost ~14 µs per delivered result, as much as storing it.
      atomically(db, () => {
        for (const [first, last] of idRuns(ids)) {
          const gone = rangeTotals.get(first, last) as { n: number; b: number };
          deleteRange.run(first, last);
          count -= gone.n;
          bytes -= gone.b;
        }
      });
    },
    reject(row, reason, at) {
      atomically(db, () => {
        db.prepare('INSERT INTO rejected (check_guid, ran_at, payload, reason, rejected_at) VALUES (?, ?, ?, ?, ?)').run(
          row.check_guid,
          row.ran_at,
          row.payload,
          reason,
          at.toISOString(),
        );
        this.remove([row.id]);
      });
    },
    count: () => count,
    bytes: () => bytes,
    oldestRanAt: () => (db.prepare('SELECT ran_at FROM outbox ORDER BY id LIMIT 1').get() as { ran_at: string } | undefined)?.ran_at,
    dropped: () => Number(getMeta(db, 'dropped_results') ?? '0'),
    rejected: (limit = 100) =>
      db.prepare('SELECT check_guid, ran_at, reason, rejected_at FROM rejected ORDER BY id DESC LIMIT ?').all(limit) as unknown as RejectedResult[],
    rejectedCount: () => (db.prepare('SELECT COUNT(*) AS n FROM rejected').get() as { n: number }).n,
    perCheck: () =>
      new Map(
        (db.prepare('SELECT check_guid, COUNT(*) AS n FROM outbox GROUP BY check_guid').all() as unknown as { check_guid: string; n: number }[]).map(
          (r) => [r.check_guid, r.n],
        ),
      ),
  };
}

/** Sorted ids as [first, last] runs of consecutive values; duplicates count once. */
export function idRuns(ids: readonly number[]): [number, number][] {
  const sorted = [...ids].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const id of sorted) {
    const run = runs.at(-1);
    if (run !== undefined && id <= run[1] + 1) run[1] = Math.max(run[1], id);
    else runs.push([id, id]);
  }
  return runs;
}
