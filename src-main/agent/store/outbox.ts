// The durable outbox: every result is committed here before anything else sees it, and leaves
// only when the server has answered 200 for it (or it is set aside as rejected, or the bound
// forces the oldest out, which is counted). Each row records the monitor that produced it: only
// the current monitor's rows are sent; another monitor's stay aside until it is reclaimed.
import type { WireResult } from '../wire/schemas.ts';
import { transaction, type Database } from './database.ts';
import { addDropped, getMeta } from './meta.ts';

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

/** Unsent results of a monitor this agent no longer is: kept, counted, sent after a reclaim. */
export interface AsideResults {
  monitorId: string;
  count: number;
}

export interface Outbox {
  /** Inserts results; call inside the caller's transaction so history and outbox commit together. */
  insert(results: readonly WireResult[]): void;
  /** Drops the oldest rows (of any monitor) while over the bound; call inside the same transaction. */
  enforceBound(): number;
  /** Re-reads the counters after a transaction that inserted was rolled back. */
  recount(): void;
  /** The monitor whose results are sent; undefined = no filter (not enrolled: nothing is sent anyway). */
  setOwner(monitorId: string | undefined): void;
  /** The owner's (or, with no owner, all) oldest rows, in order, at most maxCount of them and at most maxBytes of payload. */
  peek(maxCount: number, maxBytes: number): OutboxRow[];
  /** Removes delivered rows and returns how many were removed; throws when the delete failed. */
  remove(ids: readonly number[]): number;
  /** Moves one row to the rejected list with the server's reason. */
  reject(row: OutboxRow, reason: string, at: Date): void;
  /** Moves every set-aside result back into the outbox (after the ones waiting) and returns how many. */
  resendRejected(): number;
  /** The owner's unsent results (all of them while not enrolled). */
  count(): number;
  /** Every row, aside ones included: what the bound counts. */
  total(): number;
  bytes(): number;
  oldestRanAt(): string | undefined;
  aside(): AsideResults[];
  /** Results dropped by the bound since the data folder was created. */
  dropped(): number;
  rejected(limit?: number): RejectedResult[];
  rejectedCount(): number;
  perCheck(): Map<string, number>;
}

interface Tally {
  n: number;
  b: number;
}

export function createOutbox(db: Database, limits: OutboxLimits): Outbox {
  // Kept in memory so that a commit does not scan the table; the outbox has one writer.
  let perMonitor = new Map<string, Tally>();
  let owner: string | undefined;
  const insert = db.prepare(
    'INSERT INTO outbox (check_guid, ran_at, payload, bytes, monitor_id) VALUES (?, ?, ?, ?, ?)',
  );
  const chunkAfter = db.prepare('SELECT id, bytes FROM outbox WHERE id > ? ORDER BY id LIMIT 1000');
  const deleteUpTo = db.prepare('DELETE FROM outbox WHERE id <= ?');
  const selectIds = db.prepare('SELECT monitor_id, bytes FROM outbox WHERE id IN (SELECT value FROM json_each(?))');
  const deleteIds = db.prepare('DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?))');
  const peekAll = db.prepare('SELECT id, check_guid, ran_at, payload, bytes FROM outbox ORDER BY id LIMIT ?');
  const peekOwner = db.prepare(
    'SELECT id, check_guid, ran_at, payload, bytes FROM outbox WHERE monitor_id = ? ORDER BY id LIMIT ?',
  );

  function recount(): void {
    const rows = db
      .prepare('SELECT monitor_id, COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM outbox GROUP BY monitor_id')
      .all() as unknown as { monitor_id: string; n: number; b: number }[];
    perMonitor = new Map(rows.map((r) => [r.monitor_id, { n: r.n, b: r.b }]));
  }
  recount();

  const sum = (pick: (t: Tally) => number): number => [...perMonitor.values()].reduce((acc, t) => acc + pick(t), 0);
  const adjust = (monitorId: string, n: number, b: number): void => {
    const t = perMonitor.get(monitorId) ?? { n: 0, b: 0 };
    t.n += n;
    t.b += b;
    if (t.n <= 0) perMonitor.delete(monitorId);
    else perMonitor.set(monitorId, t);
  };
  const ownerFilter = (): string => (owner === undefined ? '' : ' WHERE monitor_id = ?');
  const ownerArgs = (): string[] => (owner === undefined ? [] : [owner]);

  return {
    insert(results) {
      for (const result of results) {
        const payload = JSON.stringify(result);
        const size = Buffer.byteLength(payload);
        insert.run(result.check_guid, result.ran_at, payload, size, result.monitor_id);
        adjust(result.monitor_id, 1, size);
      }
    },
    enforceBound() {
      let count = sum((t) => t.n);
      let bytes = sum((t) => t.b);
      let drop = 0;
      let lastId = 0;
      const over = (): boolean => count > limits.maxCount || bytes > limits.maxBytes;
      while (over()) {
        const rows = chunkAfter.all(lastId) as unknown as { id: number; bytes: number }[];
        if (rows.length === 0) break;
        for (const row of rows) {
          if (!over()) break;
          drop++;
          count--;
          bytes -= row.bytes;
          lastId = row.id;
        }
      }
      if (drop === 0) return 0;
      deleteUpTo.run(lastId);
      recount();
      addDropped(db, drop);
      return drop;
    },
    recount,
    setOwner(monitorId) {
      owner = monitorId;
    },
    peek(maxCount, maxBytes) {
      const rows = (owner === undefined
        ? peekAll.all(maxCount)
        : peekOwner.all(owner, maxCount)) as unknown as OutboxRow[];
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
      if (ids.length === 0) return 0;
      const list = JSON.stringify(ids);
      // One statement in one transaction, its commit checked: a DELETE ... RETURNING read with
      // get() hands back its row even when the commit then fails (a full disk), and an upload
      // loop trusting it re-sent the same delivered results thousands of times.
      const rows = transaction(db, () => {
        const found = selectIds.all(list) as unknown as { monitor_id: string; bytes: number }[];
        const { changes } = deleteIds.run(list);
        if (Number(changes) !== found.length)
          throw new Error(`the store removed ${String(changes)} of ${found.length} delivered results`);
        return found;
      });
      for (const row of rows) adjust(row.monitor_id, -1, -row.bytes);
      return rows.length;
    },
    reject(row, reason, at) {
      transaction(db, () => {
        db.prepare(
          'INSERT INTO rejected (check_guid, ran_at, payload, reason, rejected_at) VALUES (?, ?, ?, ?, ?)',
        ).run(row.check_guid, row.ran_at, row.payload, reason, at.toISOString());
        this.remove([row.id]);
      });
    },
    resendRejected() {
      // The monitor that produced each result is in its payload; a damaged payload stays aside.
      const moved = transaction(db, () => {
        const { changes } = db
          .prepare(
            `INSERT INTO outbox (check_guid, ran_at, payload, bytes, monitor_id)
             SELECT check_guid, ran_at, payload, length(CAST(payload AS BLOB)), payload ->> '$.monitor_id'
             FROM rejected WHERE json_valid(payload) AND payload ->> '$.monitor_id' IS NOT NULL ORDER BY id`,
          )
          .run();
        db.prepare("DELETE FROM rejected WHERE json_valid(payload) AND payload ->> '$.monitor_id' IS NOT NULL").run();
        return Number(changes);
      });
      recount();
      return moved;
    },
    count: () => (owner === undefined ? sum((t) => t.n) : (perMonitor.get(owner)?.n ?? 0)),
    total: () => sum((t) => t.n),
    bytes: () => sum((t) => t.b),
    oldestRanAt: () =>
      (
        db.prepare(`SELECT ran_at FROM outbox${ownerFilter()} ORDER BY id LIMIT 1`).get(...ownerArgs()) as
          { ran_at: string } | undefined
      )?.ran_at,
    aside: () =>
      owner === undefined
        ? []
        : [...perMonitor].filter(([id]) => id !== owner).map(([monitorId, t]) => ({ monitorId, count: t.n })),
    dropped: () => Number(getMeta(db, 'dropped_results') ?? '0'),
    rejected: (limit = 100) =>
      db
        .prepare('SELECT check_guid, ran_at, reason, rejected_at FROM rejected ORDER BY id DESC LIMIT ?')
        .all(limit) as unknown as RejectedResult[],
    rejectedCount: () => (db.prepare('SELECT COUNT(*) AS n FROM rejected').get() as { n: number }).n,
    perCheck: () =>
      new Map(
        (
          db
            .prepare(`SELECT check_guid, COUNT(*) AS n FROM outbox${ownerFilter()} GROUP BY check_guid`)
            .all(...ownerArgs()) as unknown as {
            check_guid: string;
            n: number;
          }[]
        ).map((r) => [r.check_guid, r.n]),
      ),
  };
}
