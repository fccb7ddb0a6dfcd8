// The server's absences, durable: each stretch in which the agent's calls got no usable answer
// (live/connection.ts 'unreachable'), kept beside the machine's own outages for the window and
// `status --json`. Facts only (failure kind and cause, counts, times); the words are chosen where
// they are shown. health/server-absences.ts decides when one opens and closes.
import type { ApiErrorKind, FailureCause, FailureFacts } from '../wire/failure.ts';
import { schemaVersion, type Database } from './database.ts';
import { outageSeconds } from './results-view.ts';

/** The schema version that created the table: an older store (an older agent running) has none. */
const sinceSchema = 5;

/**
 * How an absence ended: the server took a call ('answered'), it answered but refused this
 * monitor (401/403, 'refused': present, not absent), or the agent stopped before either
 * ('stopped': closed at the last failed call it saw, the last moment it can vouch for).
 */
export type AbsenceEnd = 'answered' | 'refused' | 'stopped';

/** The last failure seen during an absence, as data. */
export type AbsenceFailure = Pick<FailureFacts, 'kind' | 'cause' | 'status'>;

export interface ServerAbsence {
  started_at: string;
  /** null while it lasts. */
  ended_at: string | null;
  duration_sec: number | null;
  last_failure: AbsenceFailure;
  /** Results waiting for the server when it began. */
  waiting_at_start: number;
  /** The most waiting at once during it. */
  waiting_most: number;
  /** Waiting when it ended (the backlog); null while it lasts or when the agent stopped. */
  waiting_at_end: number | null;
  /** Of that backlog, how many were delivered after it ended. */
  delivered_after: number;
  /** When the whole backlog was delivered; null until then. */
  drained_at: string | null;
  end: AbsenceEnd | null;
}

interface Row {
  id: number;
  started_at: string;
  ended_at: string | null;
  failure_kind: string;
  failure_cause: string | null;
  failure_status: number | null;
  waiting_at_start: number;
  waiting_most: number;
  waiting_at_end: number | null;
  delivered_after: number;
  drained_at: string | null;
  end_kind: string | null;
}

const fromRow = (r: Row): ServerAbsence => ({
  started_at: r.started_at,
  ended_at: r.ended_at,
  duration_sec: r.ended_at === null ? null : outageSeconds(r.started_at, r.ended_at),
  last_failure: {
    kind: r.failure_kind as ApiErrorKind,
    ...(r.failure_cause === null ? {} : { cause: r.failure_cause as FailureCause }),
    ...(r.failure_status === null ? {} : { status: r.failure_status }),
  },
  waiting_at_start: r.waiting_at_start,
  waiting_most: r.waiting_most,
  waiting_at_end: r.waiting_at_end,
  delivered_after: r.delivered_after,
  drained_at: r.drained_at,
  end: r.end_kind as AbsenceEnd | null,
});

/** Newest first; the one in progress has ended_at null. Read-only: `status --json` uses it too. */
export function serverAbsenceHistory(db: Database, limit = 100): ServerAbsence[] {
  if (schemaVersion(db) < sinceSchema) return [];
  return (db.prepare('SELECT * FROM server_absences ORDER BY id DESC LIMIT ?').all(limit) as unknown as Row[]).map(
    fromRow,
  );
}

/** The absences that began from `from` to `to` (or since `from`), newest first: an event episode's. */
export function absencesWithin(db: Database, from: string, to: string | undefined): ServerAbsence[] {
  if (schemaVersion(db) < sinceSchema) return [];
  const rows = db
    .prepare('SELECT * FROM server_absences WHERE started_at >= ? AND started_at <= ? ORDER BY id DESC LIMIT 1000')
    .all(from, to ?? '9999') as unknown as Row[];
  return rows.map(fromRow);
}

export interface AbsenceStore {
  /** Closes what a stopped or crashed agent left open, at its last failed call; returns them closed. */
  closeAbandoned(): ServerAbsence[];
  open(at: Date, failure: AbsenceFailure, waiting: number): number;
  /** Another failed call during it: its facts and the most waiting so far. */
  seen(id: number, at: Date, failure: AbsenceFailure, waitingMost: number): void;
  /** waitingAtEnd null: the agent stops, so what is delivered after is not this run's to count. */
  /** More results wait than ever during it. */
  grew(id: number, waitingMost: number): void;
  close(id: number, at: Date, end: AbsenceEnd, waitingAtEnd: number | null, waitingMost: number): ServerAbsence;
  /** After it ended: the backlog delivered so far, and when all of it was. */
  delivered(id: number, count: number, drainedAt: Date | undefined): void;
  list(limit?: number): ServerAbsence[];
}

export function createAbsenceStore(db: Database): AbsenceStore {
  const failureArgs = (f: AbsenceFailure): [string, string | null, number | null] => [
    f.kind,
    f.cause ?? null,
    f.status ?? null,
  ];
  const insert = db.prepare(
    `INSERT INTO server_absences (started_at, last_seen_at, failure_kind, failure_cause, failure_status,
       waiting_at_start, waiting_most) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const seen = db.prepare(
    `UPDATE server_absences SET last_seen_at = ?, failure_kind = ?, failure_cause = ?, failure_status = ?,
       waiting_most = MAX(waiting_most, ?) WHERE id = ?`,
  );
  const close = db.prepare(
    `UPDATE server_absences SET ended_at = MAX(?, started_at), end_kind = ?, waiting_at_end = ?,
       waiting_most = MAX(waiting_most, ?, COALESCE(?, 0)), drained_at = CASE WHEN ? = 0 THEN MAX(?, started_at) END
       WHERE id = ? RETURNING *`,
  );
  const grew = db.prepare('UPDATE server_absences SET waiting_most = MAX(waiting_most, ?) WHERE id = ?');
  const delivered = db.prepare('UPDATE server_absences SET delivered_after = ?, drained_at = ? WHERE id = ?');
  return {
    closeAbandoned() {
      const rows = db
        .prepare(
          `UPDATE server_absences SET ended_at = last_seen_at, end_kind = 'stopped'
           WHERE ended_at IS NULL RETURNING *`,
        )
        .all() as unknown as Row[];
      return rows.map(fromRow);
    },
    open(at, failure, waiting) {
      const iso = at.toISOString();
      return (insert.get(iso, iso, ...failureArgs(failure), waiting, waiting) as { id: number }).id;
    },
    seen(id, at, failure, waitingMost) {
      seen.run(at.toISOString(), ...failureArgs(failure), waitingMost, id);
    },
    grew(id, waitingMost) {
      grew.run(waitingMost, id);
    },
    close(id, at, end, waitingAtEnd, waitingMost) {
      const iso = at.toISOString();
      const row = close.get(iso, end, waitingAtEnd, waitingMost, waitingAtEnd, waitingAtEnd, iso, id) as unknown as Row;
      return fromRow(row);
    },
    delivered(id, count, drainedAt) {
      delivered.run(count, drainedAt?.toISOString() ?? null, id);
    },
    list: (limit) => serverAbsenceHistory(db, limit),
  };
}
