// The server's absences follow the one connection state: a stretch of 'unreachable' is one
// record and one event episode however many calls fail in it; a 401/403 ends it (the server is
// there, refusing); the backlog waiting at its end is counted as it is delivered, starting with
// the batch whose 200 ended it.
import { describe, expect, it } from 'vitest';
import { createServerAbsences } from '../../../src-main/agent/health/server-absences.ts';
import { nextConnection } from '../../../src-main/agent/live/connection.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createEventLog } from '../../../src-main/agent/store/events.ts';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import type { ApiError } from '../../../src-main/agent/wire/failure.ts';

const refused: ApiError = { kind: 'network', cause: 'refused', message: 'refused' };
const keyRefused: ApiError = { kind: 'auth', status: 401, message: '401' };

function setup() {
  let nowMs = Date.UTC(2026, 10, 21, 10, 0, 0);
  let waiting = 0;
  const db = openDatabase(':memory:');
  const live = createLiveState(initialState(new Date(nowMs), 0));
  const absences = createServerAbsences({
    db,
    live,
    waiting: () => waiting,
    now: () => new Date(nowMs),
    log: silentLogger,
  });
  const call = (error: ApiError | undefined): void =>
    live.update((s) => ({ ...s, connection: nextConnection(s.connection, error, new Date(nowMs).toISOString()) }));
  return {
    db,
    live,
    absences,
    events: () =>
      createEventLog(db)
        .list({ limit: 100 })
        .filter((e) => e.kind === 'server-unreachable'),
    call,
    wait: (n: number) => {
      waiting = n;
      live.update((s) => s);
    },
    /** A delivered batch as the upload loop reports it: the rows are gone before the progress says so. */
    progress: (delivered: number, total: number, left: number) => {
      waiting = left;
      live.update((s) => ({ ...s, uploading: { delivered, total } }));
    },
    later: (sec: number) => {
      nowMs += sec * 1000;
    },
  };
}

describe('server absences', () => {
  it('one record and one event for an absence, however many calls fail in it', () => {
    const t = setup();
    t.call(undefined);
    t.wait(2);
    for (let i = 0; i < 10; i++) {
      t.later(3);
      t.call(refused);
      t.wait(2 + i);
    }
    expect(t.absences.list()).toHaveLength(1);
    expect(t.absences.list()[0]).toMatchObject({ ended_at: null, waiting_at_start: 2, waiting_most: 11 });
    expect(t.events()).toHaveLength(1);
    expect(t.events()[0]?.endedAt).toBeUndefined();

    t.later(2);
    t.call(undefined);
    const [absence] = t.absences.list();
    expect(absence).toMatchObject({ duration_sec: 29, end: 'answered', waiting_at_end: 11 });
    expect(t.events()).toHaveLength(1);
    expect(t.events()[0]).toMatchObject({ endedAt: absence?.ended_at, absence: { waiting_at_end: 11 } });
  });

  it('a blip of one failed call is recorded; a refusal of the key ends an absence and is not one', () => {
    const t = setup();
    t.call(refused);
    t.later(1);
    t.call(undefined);
    t.later(10);
    t.call(keyRefused);
    t.later(5);
    t.call(refused);
    t.later(5);
    t.call(keyRefused);
    const list = t.absences.list();
    expect(list.map((a) => [a.duration_sec, a.end])).toEqual([
      [5, 'refused'],
      [1, 'answered'],
    ]);
    // 15 s apart: one Events entry, on and off.
    expect(t.events()).toHaveLength(1);
    expect(t.events()[0]?.absences).toBe(2);
  });

  it('counts the backlog delivered after the end, from the batch whose answer ended it', () => {
    const t = setup();
    t.call(refused);
    t.wait(5);
    // A drain delivers its first batch of 2 before its call ends and moves the connection state.
    t.live.update((s) => ({ ...s, uploading: { delivered: 0, total: 5 } }));
    t.wait(5);
    t.later(4);
    t.progress(2, 5, 3);
    expect(t.absences.list()[0]).toMatchObject({
      ended_at: '2026-11-21T10:00:04.000Z',
      waiting_at_end: 5,
      delivered_after: 2,
    });
    t.wait(4); // a new result meanwhile: not part of the backlog
    t.later(1);
    t.progress(5, 5, 4);
    t.live.update(({ uploading: _gone, ...rest }) => rest);
    t.call(undefined);
    t.later(1);
    t.progress(1, 1, 3);
    expect(t.absences.list()[0]).toMatchObject({ delivered_after: 5, drained_at: '2026-11-21T10:00:05.000Z' });
    expect(t.absences.list()).toHaveLength(1);
  });

  it('an absence open when the agent stops ends there, with no backlog to count', () => {
    const t = setup();
    t.call(refused);
    t.later(7);
    t.absences.close();
    expect(t.absences.list()[0]).toMatchObject({ duration_sec: 7, end: 'stopped', waiting_at_end: null });
    expect(t.events()[0]?.endedAt).toBe('2026-11-21T10:00:07.000Z');
  });
});

describe('a store that refuses writes', () => {
  it('never breaks the caller that changed the live state', () => {
    const t = setup();
    t.db.close();
    expect(() => t.call(refused)).not.toThrow();
    expect(() => t.wait(3)).not.toThrow();
    expect(() => t.absences.close()).not.toThrow();
  });
});

describe('a server that comes and goes', () => {
  it('every 20 s for 3 minutes: each absence recorded, one Events entry; one 5 minutes later is a new entry', () => {
    const t = setup();
    t.call(undefined);
    for (let i = 0; i < 9; i++) {
      t.later(10);
      t.call(refused);
      t.later(10);
      t.call(undefined);
    }
    expect(t.absences.list()).toHaveLength(9);
    const [entry] = t.events();
    expect(t.events()).toHaveLength(1);
    expect(entry).toMatchObject({ startedAt: '2026-11-21T10:00:10.000Z', endedAt: '2026-11-21T10:03:00.000Z' });
    expect(entry?.absences).toBe(9);
    expect(entry?.absence?.started_at).toBe('2026-11-21T10:02:50.000Z');

    t.later(5 * 60);
    t.call(refused);
    expect(t.events()).toHaveLength(2);
    expect(t.events()[0]?.endedAt).toBeUndefined();
    expect(t.events()[0]?.absences).toBe(1);
  });
});
