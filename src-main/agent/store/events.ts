// The log of state changes, per check and for the agent: one row per episode ("Shop down from
// 10:28 to 10:41 — status 503"), open while it lasts, so the detail pane, the Events view, the
// tray and desktop notifications all read the same facts. Opening an episode that is already open
// is a no-op that says so: a restarted agent that finds a check still down does not announce it
// twice. Bounded: the oldest closed episodes go once the log holds more than maxRows.
import type { Database } from './database.ts';

/** Episodes of a check ('test-run': a "Run now" from the window, kept here, never uploaded). */
export type CheckEventKind = 'down' | 'test-run';
/** Episodes of the agent (the guid is empty). */
export type AgentEventKind =
  | 'offline'
  | 'server-unavailable'
  | 'key-rejected'
  | 'monitor-disabled'
  | 'clock-skew'
  | 'results-dropped'
  | 'store-full';
export type EventKind = CheckEventKind | AgentEventKind;

export interface AgentEvent {
  id: number;
  kind: EventKind;
  /** Empty for an event of the agent. */
  checkGuid: string;
  /** The check's name when it happened (empty for the agent). */
  checkName: string;
  startedAt: string;
  /** Absent while the episode lasts; equal to startedAt for a one-off note. */
  endedAt?: string;
  /** Why it started, in words (redacted like everything the UI shows). */
  reason: string;
  /** Why it ended, when that says something ("status 200"). */
  endReason?: string;
}

export interface EventSubject {
  kind: EventKind;
  guid?: string;
  name?: string;
}

export interface EventLog {
  /** Opens an episode; `opened: false` when one of that kind was open already (returned). */
  begin(subject: EventSubject, at: Date, reason: string): { event: AgentEvent; opened: boolean };
  /** Closes the open episode of that kind, if any, and returns it closed. */
  end(subject: EventSubject, at: Date, reason?: string): AgentEvent | undefined;
  /** A one-off event: it starts and ends at once. */
  note(subject: EventSubject, at: Date, reason: string): AgentEvent;
  /** Newest first; only one check's when guid is given ('' = the agent's own). */
  list(options: { guid?: string; limit: number; beforeId?: number }): AgentEvent[];
  /** Every episode still open, oldest first. */
  openEvents(): AgentEvent[];
  forget(guid: string): void;
}

interface EventRow {
  id: number;
  kind: string;
  check_guid: string;
  check_name: string;
  started_at: string;
  ended_at: string | null;
  reason: string;
  end_reason: string;
}

const columns = 'id, kind, check_guid, check_name, started_at, ended_at, reason, end_reason';

const fromRow = (r: EventRow): AgentEvent => ({
  id: r.id,
  kind: r.kind as EventKind,
  checkGuid: r.check_guid,
  checkName: r.check_name,
  startedAt: r.started_at,
  ...(r.ended_at === null ? {} : { endedAt: r.ended_at }),
  reason: r.reason,
  ...(r.end_reason === '' ? {} : { endReason: r.end_reason }),
});

export function createEventLog(db: Database, maxRows = 20_000): EventLog {
  const findOpen = db.prepare(
    `SELECT ${columns} FROM events WHERE kind = ? AND check_guid = ? AND ended_at IS NULL ORDER BY id DESC LIMIT 1`,
  );
  const insert = db.prepare(
    'INSERT INTO events (kind, check_guid, check_name, started_at, ended_at, reason, end_reason) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const close = db.prepare('UPDATE events SET ended_at = ?, end_reason = ? WHERE id = ?');
  const byId = db.prepare(`SELECT ${columns} FROM events WHERE id = ?`);
  const prune = db.prepare('DELETE FROM events WHERE ended_at IS NOT NULL AND id <= (SELECT MAX(id) FROM events) - ?');
  let inserts = 0;

  const add = (subject: EventSubject, startedAt: string, endedAt: string | null, reason: string): AgentEvent => {
    const id = Number(
      insert.run(subject.kind, subject.guid ?? '', subject.name ?? '', startedAt, endedAt, reason, '').lastInsertRowid,
    );
    // Pruning every few hundred inserts keeps the bound without a query per event.
    if (++inserts % 256 === 0) prune.run(maxRows);
    return fromRow(byId.get(id) as unknown as EventRow);
  };

  return {
    begin(subject, at, reason) {
      const existing = findOpen.get(subject.kind, subject.guid ?? '') as EventRow | undefined;
      if (existing !== undefined) return { event: fromRow(existing), opened: false };
      return { event: add(subject, at.toISOString(), null, reason), opened: true };
    },
    end(subject, at, reason = '') {
      const existing = findOpen.get(subject.kind, subject.guid ?? '') as EventRow | undefined;
      if (existing === undefined) return undefined;
      // A clock that went back must not give an episode a negative length.
      const endedAt = at.toISOString() < existing.started_at ? existing.started_at : at.toISOString();
      close.run(endedAt, reason, existing.id);
      return fromRow({ ...existing, ended_at: endedAt, end_reason: reason });
    },
    note(subject, at, reason) {
      const iso = at.toISOString();
      return add(subject, iso, iso, reason);
    },
    list({ guid, limit, beforeId }) {
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (guid !== undefined) {
        where.push('check_guid = ?');
        args.push(guid);
      }
      if (beforeId !== undefined) {
        where.push('id < ?');
        args.push(beforeId);
      }
      const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
      const rows = db
        .prepare(`SELECT ${columns} FROM events ${clause} ORDER BY id DESC LIMIT ?`)
        .all(...args, limit) as unknown as EventRow[];
      return rows.map(fromRow);
    },
    openEvents() {
      return (
        db.prepare(`SELECT ${columns} FROM events WHERE ended_at IS NULL ORDER BY id`).all() as unknown as EventRow[]
      ).map(fromRow);
    },
    forget(guid) {
      if (guid !== '') db.prepare('DELETE FROM events WHERE check_guid = ?').run(guid);
    },
  };
}
