// Connectivity outages: opened when the agent finds itself offline, closed when it is back,
// kept in the store for the UI, and the last completed one reported in MonitorStatus.
import type { Database } from '../store/database.ts';
import { outageSeconds } from '../store/results-view.ts';

export interface CompletedOutage {
  startedAt: string;
  endedAt: string;
  durationSec: number;
}

export interface OutageTracker {
  readonly offline: boolean;
  /** When the current outage started, if offline. */
  readonly since: string | undefined;
  /** The last outage completed since this agent started (what MonitorStatus reports). */
  readonly lastCompleted: CompletedOutage | undefined;
  /** Returns true when this starts a new outage. */
  wentOffline(at: Date): boolean;
  /** Returns the completed outage when this ends one. */
  cameOnline(at: Date): CompletedOutage | undefined;
}

/**
 * An outage still open in the store belongs to a run that ended while offline (a crash or a
 * stop); it is closed at this start, the first moment the agent can vouch for.
 */
export function createOutageTracker(db: Database, startedAt: Date): OutageTracker {
  db.prepare('UPDATE outages SET ended_at = ? WHERE ended_at IS NULL').run(startedAt.toISOString());
  let open: { id: number; startedAt: string } | undefined;
  let lastCompleted: CompletedOutage | undefined;
  return {
    get offline() {
      return open !== undefined;
    },
    get since() {
      return open?.startedAt;
    },
    get lastCompleted() {
      return lastCompleted;
    },
    wentOffline(at) {
      if (open !== undefined) return false;
      const startedAtIso = at.toISOString();
      const row = db.prepare('INSERT INTO outages (started_at) VALUES (?) RETURNING id').get(startedAtIso) as {
        id: number;
      };
      open = { id: row.id, startedAt: startedAtIso };
      return true;
    },
    cameOnline(at) {
      if (open === undefined) return undefined;
      const endedAt = at.toISOString();
      db.prepare('UPDATE outages SET ended_at = ? WHERE id = ?').run(endedAt, open.id);
      const durationSec = outageSeconds(open.startedAt, endedAt);
      const completed = { startedAt: open.startedAt, endedAt, durationSec };
      // A blip under a second is kept in the store, but never replaces a real outage in the
      // next status (last_outage_sec: 0 would hide the 58 s before it).
      if (durationSec > 0 || lastCompleted === undefined) lastCompleted = completed;
      open = undefined;
      return completed;
    },
  };
}
