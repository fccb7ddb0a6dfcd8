import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createEventLog } from '../../../src-main/agent/store/events.ts';

const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 21, 10, minute));

describe('event log', () => {
  it('keeps one open episode per check and kind, closed with its end and reason', () => {
    const db = openDatabase(':memory:');
    const log = createEventLog(db);
    const down = log.begin({ kind: 'down', guid: 'shop', name: 'Shop' }, at(28), 'status 503, expected 200');
    expect(down.opened).toBe(true);
    // A second failure (or a restarted agent) does not open another one.
    expect(log.begin({ kind: 'down', guid: 'shop', name: 'Shop' }, at(30), 'timeout').opened).toBe(false);
    log.begin({ kind: 'offline' }, at(2), 'no connectivity target answered');
    expect(log.openEvents().map((e) => e.kind)).toEqual(['down', 'offline']);

    const up = log.end({ kind: 'down', guid: 'shop' }, at(41), 'status 200');
    expect(up).toMatchObject({
      checkName: 'Shop',
      startedAt: at(28).toISOString(),
      endedAt: at(41).toISOString(),
      reason: 'status 503, expected 200',
      endReason: 'status 200',
    });
    expect(log.end({ kind: 'down', guid: 'shop' }, at(42))).toBeUndefined();
    log.end({ kind: 'offline' }, at(5));
    log.note({ kind: 'key-rejected' }, at(50), 'the server refused the API key');

    expect(log.openEvents()).toEqual([]);
    expect(log.list({ limit: 10 }).map((e) => e.kind)).toEqual(['key-rejected', 'offline', 'down']);
    expect(log.list({ guid: 'shop', limit: 10 })).toHaveLength(1);
    expect(log.list({ guid: '', limit: 10 }).map((e) => e.kind)).toEqual(['key-rejected', 'offline']);
    const [newest] = log.list({ limit: 1 });
    expect(log.list({ limit: 10, beforeId: newest?.id ?? 0 }).map((e) => e.kind)).toEqual(['offline', 'down']);
    // Reopened: the open episode is found again.
    log.begin({ kind: 'down', guid: 'shop', name: 'Shop' }, at(55), 'refused');
    expect(createEventLog(db).begin({ kind: 'down', guid: 'shop', name: 'Shop' }, at(56), 'x').opened).toBe(false);
  });

  it('an end before its start (clock went back) gives a zero-length episode', () => {
    const log = createEventLog(openDatabase(':memory:'));
    log.begin({ kind: 'offline' }, at(10), 'x');
    expect(log.end({ kind: 'offline' }, at(5))?.endedAt).toBe(at(10).toISOString());
  });

  it('stays bounded: the oldest closed episodes go, open ones stay', () => {
    const db = openDatabase(':memory:');
    const log = createEventLog(db, 100);
    log.begin({ kind: 'down', guid: 'old', name: 'Old' }, at(0), 'x');
    for (let i = 0; i < 600; i++) log.note({ kind: 'results-dropped' }, at(1), `${i}`);
    const n = (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
    expect(n).toBeLessThanOrEqual(100 + 256 + 1);
    expect(log.openEvents().map((e) => e.checkGuid)).toEqual(['old']);
  });
});
