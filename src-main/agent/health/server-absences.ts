// The server's absences as history (issue 25): follows the one connection state
// (live/connection.ts) and records each stretch in 'unreachable' (store/server-absences.ts), with
// one event episode for it (opened when it starts, closed when it ends), never one per failed call.
//
// What counts: only 'unreachable' — calls that got no usable answer (refused, reset, timed out,
// 5xx, an answer that is not the API's). 'rejected' (401) and 'disabled' (403) are the server
// present and refusing this monitor: they have their own episodes (key-rejected,
// monitor-disabled) and end an absence rather than start one. A blip of one failed call is an
// absence too (it is recorded, however short). A server that comes and goes does not flood
// Events: an absence starting within rejoinMs of the last one's end continues its entry ("on and
// off", with the count); each absence keeps its own record for Outages and `status --json`.
//
// The backlog: the results waiting when the absence ended, delivered in order after it (the
// outbox is first in, first out), so the first deliveries after the end are that backlog.
import type { Logger } from '../base/log.ts';
import type { AgentState, LiveState } from '../live/state.ts';
import type { Database } from '../store/database.ts';
import { createEventLog } from '../store/events.ts';
import {
  createAbsenceStore,
  type AbsenceEnd,
  type AbsenceFailure,
  type ServerAbsence,
} from '../store/server-absences.ts';

export interface ServerAbsenceDeps {
  db: Database;
  live: Pick<LiveState, 'get' | 'onChange'>;
  /** Results waiting for the server now (the outbox's in-memory count). */
  waiting: () => number;
  now: () => Date;
  log: Logger;
  /** Default serverAbsenceDefaults.rejoinMs. */
  rejoinMs?: number;
}

export const serverAbsenceDefaults = {
  /**
   * Two minutes: a server restarting, or a load balancer cycling its members, is one incident to a
   * person reading Events, while two absences further apart are two. Longer than the loops' retry
   * backoff, so a server that answers one call in three is one entry, not one per answer.
   */
  rejoinMs: 2 * 60_000,
};

export interface ServerAbsences {
  /** Newest first; the one in progress has ended_at null. */
  list(limit?: number): ServerAbsence[];
  /** The agent stops: an absence still open ends here (what drains later is the next run's). */
  close(): void;
}

/** The event kind of an absence; its reason and end reason are for the log and `status --json`. */
const subject = { kind: 'server-unreachable' as const };

const failureOf = (state: AgentState): AbsenceFailure => {
  const f = state.connection.lastFailure;
  return f === undefined
    ? { kind: 'network' }
    : {
        kind: f.kind,
        ...(f.cause === undefined ? {} : { cause: f.cause }),
        ...(f.status === undefined ? {} : { status: f.status }),
      };
};

export function createServerAbsences(deps: ServerAbsenceDeps): ServerAbsences {
  const store = createAbsenceStore(deps.db);
  const events = createEventLog(deps.db);
  for (const closed of store.closeAbandoned())
    if (closed.ended_at !== null)
      events.end(subject, new Date(closed.ended_at), 'the agent stopped before the server answered again');

  let open: { id: number; most: number } | undefined;
  let draining: { id: number; backlog: number; delivered: number } | undefined;
  let connection = deps.live.get().connection;
  /** Results delivered by the drain in progress, as last seen (live state `uploading`). */
  let seenDelivered = 0;

  function begin(state: AgentState): void {
    const at = new Date(state.connection.since ?? deps.now().toISOString());
    const waiting = deps.waiting();
    draining = undefined;
    open = { id: store.open(at, failureOf(state), waiting), most: waiting };
    const rejoinMs = deps.rejoinMs ?? serverAbsenceDefaults.rejoinMs;
    if (events.resume(subject, new Date(at.getTime() - rejoinMs)) === undefined)
      events.begin(subject, at, 'the server could not be reached');
    deps.log.warn({ waiting }, 'the server cannot be reached; results wait here until it answers');
  }

  function end(at: Date, how: AbsenceEnd, waitingAtEnd: number | null, deliveredNow = 0): void {
    if (open === undefined) return;
    const { id, most } = open;
    open = undefined;
    const closed = store.close(id, at, how, waitingAtEnd, most);
    events.end(subject, at, how === 'stopped' ? 'the agent stopped' : 'the server answered again');
    deps.log.info({ durationSec: closed.duration_sec, waiting: waitingAtEnd }, 'the server is reachable again');
    if (waitingAtEnd !== null && waitingAtEnd > 0) {
      draining = { id, backlog: waitingAtEnd, delivered: 0 };
      delivered(deliveredNow, at);
    }
  }

  function delivered(count: number, at: Date): void {
    if (draining === undefined || count <= 0) return;
    draining.delivered = Math.min(draining.backlog, draining.delivered + count);
    const done = draining.delivered >= draining.backlog;
    store.delivered(draining.id, draining.delivered, done ? at : undefined);
    if (done) draining = undefined;
  }

  function changed(): void {
    const state = deps.live.get();
    const progress = state.uploading?.delivered ?? 0;
    const justDelivered = Math.max(0, progress - seenDelivered);
    seenDelivered = progress;
    if (open !== undefined) {
      // A delivered batch is the server answering: the absence ends there, even before the call
      // that delivered it has moved the connection state (it does when the whole drain returns).
      if (justDelivered > 0) end(deps.now(), 'answered', deps.waiting() + justDelivered, justDelivered);
      else if (deps.waiting() > open.most) {
        // Written as it grows (once per result batch at most), so the window and a crash see it.
        open.most = deps.waiting();
        store.grew(open.id, open.most);
      }
    } else delivered(justDelivered, deps.now());

    if (state.connection === connection) return;
    const before = connection;
    connection = state.connection;
    if (connection.state === 'unreachable') {
      if (open === undefined) begin(state);
      else if (before.state === 'unreachable') store.seen(open.id, deps.now(), failureOf(state), open.most);
      return;
    }
    if (connection.state === 'connecting') return;
    end(deps.now(), connection.state === 'connected' ? 'answered' : 'refused', deps.waiting());
  }

  let failing = false;
  // A listener of the live state: a store that refuses writes (a full disk) must not break the
  // caller that changed the state (a result commit, a server call). The record catches up at the
  // next change it sees; the log says so once.
  const unsubscribe = deps.live.onChange(() => {
    try {
      changed();
      failing = false;
    } catch (error) {
      if (!failing)
        deps.log.warn({ err: error }, 'the server’s absence could not be recorded in the store; trying again');
      failing = true;
    }
  });
  return {
    list: (limit) => store.list(limit),
    close() {
      unsubscribe();
      try {
        end(deps.now(), 'stopped', null);
      } catch (error) {
        // Left open: the next start closes it at its last failed call.
        deps.log.warn({ err: error }, 'the server’s absence could not be closed in the store before stopping');
      }
    },
  };
}
