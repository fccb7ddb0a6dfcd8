import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createEventLog } from '../../../src-main/agent/store/events.ts';
import { createTransitionTracker, type ObservedRun } from '../../../src-main/agent/runs/transitions.ts';
import { runOutcome } from '../../support/probe-outcomes.ts';

const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 21, 10, minute));
const run = (overrides: Partial<ObservedRun> = {}): ObservedRun => ({
  guid: 'shop',
  name: 'Shop',
  skipped: false,
  error: 'status 503, expected 200',
  ...overrides,
});

describe('transitions from the event log', () => {
  it('announces a check going down once, and its recovery with when it went down', () => {
    const log = createEventLog(openDatabase(':memory:'));
    const tracker = createTransitionTracker(log, () => at(59));
    expect(tracker.observe(run({ error: '' }), runOutcome(true), at(0))).toBeUndefined(); // up is not news
    expect(tracker.observe(run(), runOutcome(false), at(28))).toEqual({
      guid: 'shop',
      name: 'Shop',
      kind: 'down',
      error: 'status 503, expected 200',
      at: at(28).toISOString(),
    });
    expect(tracker.observe(run(), runOutcome(false), at(29))).toBeUndefined();
    expect(tracker.observe(run({ skipped: true }), runOutcome(false), at(30))).toBeUndefined();
    expect(tracker.downSince('shop')).toBe(at(28).toISOString());
    expect(tracker.observe(run({ error: '' }), runOutcome(true), at(41))).toEqual({
      guid: 'shop',
      name: 'Shop',
      kind: 'recovered',
      at: at(41).toISOString(),
      downSince: at(28).toISOString(),
    });
    expect(log.list({ guid: 'shop', limit: 5 })).toMatchObject([
      { kind: 'down', startedAt: at(28).toISOString(), endedAt: at(41).toISOString(), endReason: 'status 200' },
    ]);
  });

  it('a restarted agent finds the open episode: no second "down", and the recovery is told', () => {
    const db = openDatabase(':memory:');
    createTransitionTracker(createEventLog(db), () => at(0)).observe(run(), runOutcome(false), at(28));
    const again = createTransitionTracker(createEventLog(db), () => at(0));
    expect(again.downSince('shop')).toBe(at(28).toISOString());
    expect(again.observe(run(), runOutcome(false), at(35))).toBeUndefined();
    expect(again.observe(run(), runOutcome(true), at(41))?.kind).toBe('recovered');
  });

  it('a check no longer run ends its open episode, and the log keeps it', () => {
    const log = createEventLog(openDatabase(':memory:'));
    const tracker = createTransitionTracker(log, () => at(50));
    tracker.observe(run(), runOutcome(false), at(28));
    tracker.forget('shop');
    expect(tracker.downSince('shop')).toBeUndefined();
    expect(log.list({ guid: 'shop', limit: 1 })[0]).toMatchObject({
      endedAt: at(50).toISOString(),
      endReason: 'the check is no longer run here',
    });
  });

  it('opens and closes the agent episodes as its conditions come and go', () => {
    const log = createEventLog(openDatabase(':memory:'));
    const tracker = createTransitionTracker(log, () => at(0));
    expect(
      tracker.agentState({ offline: 'no connectivity target answered' }, at(2)).map((e) => [e.kind, e.endedAt]),
    ).toEqual([['offline', undefined]]);
    expect(tracker.agentState({ offline: 'still' }, at(3))).toEqual([]);
    expect(
      tracker.agentState({ 'key-rejected': 'the server refused the API key' }, at(5)).map((e) => [e.kind, e.endedAt]),
    ).toEqual([
      ['offline', at(5).toISOString()],
      ['key-rejected', undefined],
    ]);
    expect(log.openEvents().map((e) => e.kind)).toEqual(['key-rejected']);
  });
});
