import { describe, expect, it } from 'vitest';
import { hashOf, placeFromHash } from '../../src-renderer/state/hash-route.ts';
import { backlogNeedsAttention, windowTitle } from '../../src-renderer/state/signals.ts';
import { checkOf, notEnrolled, snapshotOf } from './fixtures.ts';

const down = (guid: string) => checkOf({ guid, name: guid, health: 'down' });
const outbox = (unsent: number, oldestRanAt?: string) => ({
  unsent,
  bytes: unsent * 300,
  dropped: 0,
  rejectedCount: 0,
  rejected: [],
  ...(oldestRanAt === undefined ? {} : { oldestRanAt }),
});

describe('the window title says the state', () => {
  it.each([
    {
      name: 'two down',
      snapshot: snapshotOf({ checks: [down('a'), down('b'), checkOf({ guid: 'c', name: 'c' })] }),
      title: '2 down · Uptime Agent',
    },
    {
      name: 'all up',
      snapshot: snapshotOf({ checks: [checkOf({ guid: 'c', name: 'c' })] }),
      title: 'Online · Uptime Agent',
    },
    {
      name: 'down and offline',
      snapshot: snapshotOf({ checks: [down('a')], connectivity: { online: false } }),
      title: '1 down · offline · Uptime Agent',
    },
    { name: 'not enrolled', snapshot: notEnrolled(), title: 'Not enrolled · Uptime Agent' },
  ])('$name', ({ snapshot, title }) => {
    expect(windowTitle(snapshot, 'connected')).toBe(title);
  });
  it('says when the page lost the agent', () => {
    expect(windowTitle(snapshotOf(), 'reconnecting')).toBe('Disconnected · Uptime Agent');
  });
});

describe('the Unsent badge rule', () => {
  it('appears only for a backlog older than a few upload intervals, or refused or dropped results', () => {
    expect(backlogNeedsAttention(snapshotOf({ outbox: outbox(500, '2026-11-21T09:59:50.000Z') }))).toBe(false);
    expect(backlogNeedsAttention(snapshotOf({ outbox: outbox(5, '2026-11-21T09:57:00.000Z') }))).toBe(true);
    expect(backlogNeedsAttention(snapshotOf({ outbox: { ...outbox(0), dropped: 3 } }))).toBe(true);
  });
});

describe('places in the URL hash', () => {
  it.each([
    { hash: '#/checks/g%2F1', place: { view: 'checks', guid: 'g/1' } },
    { hash: '#/checks', place: { view: 'checks' } },
    { hash: '#/events', place: { view: 'events' } },
    { hash: '#/enroll/abcdefghjkmn', place: { view: 'enroll', reclaimId: 'abcdefghjkmn' } },
  ] as const)('$hash', ({ hash, place }) => {
    expect(placeFromHash(hash)).toEqual(place);
    expect(hashOf(place)).toBe(hash);
  });
  it('ignores what it does not know', () => {
    expect(placeFromHash('')).toBeUndefined();
    expect(placeFromHash('#/nowhere')).toBeUndefined();
    expect(placeFromHash('#/checks/%E0%A4%A')).toEqual({ view: 'checks' });
  });
});
