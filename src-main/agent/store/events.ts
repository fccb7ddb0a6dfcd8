// The log of state changes, per check and for the agent: one row per episode ("Shop down from
// 10:28 to 10:41 — status 503"), open while it lasts, so the detail pane, the Events view, the
// tray and desktop notifications all read the same facts. Opening an episode that is already open
// is a no-op that says so: a restarted agent that finds a check still down does not announce it
// twice. Bounded: the oldest closed episodes go once the log holds more than maxRows. A check's
// flapping episode stands for the down episodes inside it: lists show it once, with their
// pattern, instead of a card per change (runs/flapping.ts).
import type { Database } from './database.ts';
import { absencesWithin, type ServerAbsence } from './server-absences.ts';

/**
 * Episodes of a check ('test-run': a "Run now" from the window, kept here, never uploaded;
 * 'flapping': the check changed state often, from its first change counted until it settled).
 */
export type CheckEventKind = 'down' | 'test-run' | 'flapping';
/** Episodes of the agent (the guid is empty). */
export type AgentEventKind =
  | 'offline'
  /** The server could not be reached (health/server-absences.ts): one episode per absence. */
  | 'server-unreachable'
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
  /** A flapping episode's pattern: the down episodes it stands for. */
  pattern?: FlapPattern;
  /**
   * A server-unreachable episode's facts: its latest absence (last failure, what waited, what was
   * delivered after) and how many absences it stands for (more than one: on and off).
   */
  absence?: ServerAbsence;
  absences?: number;
}

export interface FlapPattern {
  /** Down episodes within it (each one failing stretch). */
  downs: number;
  /** Total time down within it, in seconds. */
  downSec: number;
  /** The latest failing stretches, oldest first (`to` absent while it lasts). */
  recent: { from: string; to?: string }[];
}

/** Failing stretches kept in a flapping episode's pattern. */
const patternShown = 12;

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
  /**
   * Opens the newest episode of that kind again when it ended at or after `after` (an absence that
   * comes back soon continues the same entry); undefined when there is none that recent.
   */
  resume(subject: EventSubject, after: Date): AgentEvent | undefined;
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

/** A flapping episode's span; `to` null while it lasts. */
interface FlapSpan {
  from: string;
  to: string | null;
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
  const flapSpans = db.prepare("SELECT check_guid, started_at, ended_at FROM events WHERE kind = 'flapping'");
  const downsFrom = db.prepare(
    `SELECT ${columns} FROM events WHERE check_guid = ? AND kind = 'down' AND started_at >= ? ORDER BY id`,
  );
  let inserts = 0;

  /** Flapping episodes by check: a down episode inside one is shown through it. */
  const flapIndex = (): Map<string, FlapSpan[]> => {
    const index = new Map<string, FlapSpan[]>();
    for (const row of flapSpans.all() as unknown as Pick<EventRow, 'check_guid' | 'started_at' | 'ended_at'>[]) {
      const spans = index.get(row.check_guid) ?? [];
      spans.push({ from: row.started_at, to: row.ended_at });
      index.set(row.check_guid, spans);
    }
    return index;
  };

  /**
   * A down episode inside a flapping one is folded into it: while the flapping lasts, and once it
   * ended for every stretch that ended with it. The stretch a check settled down in stays shown.
   */
  const inside = (row: EventRow, f: FlapSpan): boolean =>
    row.started_at >= f.from && (f.to === null || (row.ended_at !== null && row.ended_at <= f.to));
  const folded = (row: EventRow, flaps: ReturnType<typeof flapIndex>): boolean =>
    row.kind === 'down' && (flaps.get(row.check_guid) ?? []).some((f) => inside(row, f));

  const withPattern = (event: AgentEvent): AgentEvent => {
    if (event.kind !== 'flapping') return event;
    const to = event.endedAt ?? null;
    const rows = (downsFrom.all(event.checkGuid, event.startedAt) as unknown as EventRow[]).filter((row) =>
      inside(row, { from: event.startedAt, to }),
    );
    const closedMs = rows.reduce(
      (sum, r) => sum + (r.ended_at === null ? 0 : Date.parse(r.ended_at) - Date.parse(r.started_at)),
      0,
    );
    const recent = rows
      .slice(-patternShown)
      .map((r) => ({ from: r.started_at, ...(r.ended_at === null ? {} : { to: r.ended_at }) }));
    return { ...event, pattern: { downs: rows.length, downSec: Math.round(closedMs / 1000), recent } };
  };

  const withFacts = (event: AgentEvent): AgentEvent => {
    if (event.kind !== 'server-unreachable') return withPattern(event);
    const within = absencesWithin(db, event.startedAt, event.endedAt);
    const absence = within.at(0);
    return absence === undefined ? event : { ...event, absence, absences: within.length };
  };

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
    resume(subject, after) {
      const newest = db
        .prepare(`SELECT ${columns} FROM events WHERE kind = ? AND check_guid = ? ORDER BY id DESC LIMIT 1`)
        .get(subject.kind, subject.guid ?? '') as EventRow | undefined;
      if (newest === undefined || newest.ended_at === null || newest.ended_at < after.toISOString()) return undefined;
      db.prepare("UPDATE events SET ended_at = NULL, end_reason = '' WHERE id = ?").run(newest.id);
      return fromRow({ ...newest, ended_at: null, end_reason: '' });
    },
    note(subject, at, reason) {
      const iso = at.toISOString();
      return add(subject, iso, iso, reason);
    },
    list({ guid, limit, beforeId }) {
      const where = [...(guid === undefined ? [] : ['check_guid = ?']), 'id < ?'];
      const page = db.prepare(`SELECT ${columns} FROM events WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`);
      const flaps = flapIndex();
      // Folded rows do not count against the limit: read on until the page is full or the log ends.
      const shown: AgentEvent[] = [];
      let before = beforeId ?? Number.MAX_SAFE_INTEGER;
      while (shown.length < limit) {
        const rows = page.all(...(guid === undefined ? [] : [guid]), before, limit) as unknown as EventRow[];
        for (const row of rows) if (shown.length < limit && !folded(row, flaps)) shown.push(withFacts(fromRow(row)));
        const last = rows.at(-1);
        if (last === undefined || rows.length < limit) break;
        before = last.id;
      }
      return shown;
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
