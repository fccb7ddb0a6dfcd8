// The server's absences in the store, on a real file: opened, seen, closed with their backlog,
// the backlog's delivery counted, and an absence a crash left open closed at the next start at
// its last failed call (the last moment the agent could vouch for), never at the restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createAbsenceStore, serverAbsenceHistory } from '../../../src-main/agent/store/server-absences.ts';

const at = (second: number): Date => new Date(Date.UTC(2026, 10, 21, 10, 0, second));
const storeFile = (): string => join(mkdtempSync(join(tmpdir(), 'absences-')), 'agent.db');

describe('server absences store', () => {
  it('keeps an absence from its start to its end with the last failure, what waited and what drained', () => {
    const db = openDatabase(storeFile());
    const store = createAbsenceStore(db);
    const id = store.open(at(0), { kind: 'network', cause: 'refused' }, 2);
    store.grew(id, 7);
    store.seen(id, at(20), { kind: 'server', status: 503 }, 5);
    expect(store.list()).toEqual([
      {
        started_at: at(0).toISOString(),
        ended_at: null,
        duration_sec: null,
        last_failure: { kind: 'server', status: 503 },
        waiting_at_start: 2,
        waiting_most: 7,
        waiting_at_end: null,
        delivered_after: 0,
        drained_at: null,
        end: null,
      },
    ]);
    const closed = store.close(id, at(40), 'answered', 9, 8);
    expect(closed).toMatchObject({
      ended_at: at(40).toISOString(),
      duration_sec: 40,
      waiting_at_end: 9,
      waiting_most: 9,
    });
    store.delivered(id, 4, undefined);
    store.delivered(id, 9, at(43));
    expect(store.list()[0]).toMatchObject({ delivered_after: 9, drained_at: at(43).toISOString(), end: 'answered' });
    db.close();
  });

  it('an absence with nothing waiting at its end has drained when it ended; a clock stepped back gives no negative length', () => {
    const db = openDatabase(storeFile());
    const store = createAbsenceStore(db);
    const id = store.open(at(30), { kind: 'timeout', cause: 'timeout' }, 0);
    expect(store.close(id, at(10), 'refused', 0, 0)).toMatchObject({
      ended_at: at(30).toISOString(),
      duration_sec: 0,
      drained_at: at(30).toISOString(),
      end: 'refused',
    });
    db.close();
  });

  it('closes what a crash left open at its last failed call, at the next start', () => {
    const file = storeFile();
    const first = openDatabase(file);
    const store = createAbsenceStore(first);
    const id = store.open(at(0), { kind: 'network', cause: 'refused' }, 1);
    store.seen(id, at(25), { kind: 'network', cause: 'reset' }, 3);
    first.close(); // the process dies here

    const again = openDatabase(file);
    const closed = createAbsenceStore(again).closeAbandoned();
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({
      ended_at: at(25).toISOString(),
      duration_sec: 25,
      end: 'stopped',
      waiting_at_end: null,
      last_failure: { kind: 'network', cause: 'reset' },
    });
    expect(serverAbsenceHistory(again)[0]?.ended_at).toBe(at(25).toISOString());
    expect(createAbsenceStore(again).closeAbandoned()).toEqual([]);
    again.close();
  });
});
