import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src-main/agent/store/database.ts';
import { applyDelta, getCheck, listChecks } from '../../../src-main/agent/store/checks.ts';
import { getMeta } from '../../../src-main/agent/store/meta.ts';
import { wireCheck } from '../../support/wire-fixtures.ts';

describe('check store', () => {
  let db: Database;
  beforeEach(() => (db = openDatabase(':memory:')));
  afterEach(() => db.close());

  it('applies a delta and stores its server_time as the cursor', () => {
    const summary = applyDelta(db, [wireCheck({ guid: 'a' }), wireCheck({ guid: 'b' })], '2026-11-21T10:00:01.000000Z');
    expect(summary).toEqual({ received: 2, added: 2, updated: 0, stopped: 0, invalid: 0 });
    expect(getMeta(db, 'sync_cursor')).toBe('2026-11-21T10:00:01.000000Z');
    expect(listChecks(db).map((c) => c.check.guid)).toEqual(['a', 'b']);
  });

  it.each([
    { name: 'deleted', change: { deleted: true }, listed: false },
    { name: 'disabled (also how an unassignment arrives)', change: { enabled: false }, listed: true },
  ])('a check that arrives $name stops', ({ change, listed }) => {
    applyDelta(db, [wireCheck({ guid: 'a' })], 't1');
    const summary = applyDelta(db, [wireCheck({ guid: 'a', ...change })], 't2');
    expect(summary.stopped).toBe(1);
    expect(getCheck(db, 'a')?.active).toBe(false);
    expect(listChecks(db).some((c) => c.check.guid === 'a')).toBe(listed);
  });

  it('flags a check with an empty url as a private definition', () => {
    applyDelta(db, [wireCheck({ guid: 'p', url: '', match_string: '' })], 't1');
    expect(getCheck(db, 'p')).toMatchObject({ privateDefinition: true, active: true });
  });

  it('leaves nothing behind when a delta fails half way', () => {
    applyDelta(db, [wireCheck({ guid: 'a' })], 't1');
    const broken = { ...wireCheck({ guid: 'b' }), name: undefined } as unknown as ReturnType<typeof wireCheck>;
    expect(() => applyDelta(db, [wireCheck({ guid: 'c' }), broken], 't2')).toThrow();
    expect(getMeta(db, 'sync_cursor')).toBe('t1');
    expect(getCheck(db, 'c')).toBeUndefined();
  });
});
