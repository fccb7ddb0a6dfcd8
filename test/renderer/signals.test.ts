import { describe, expect, it } from 'vitest';
import { statusOf } from '../../src-renderer/components/StatusPill.tsx';
import { hashOf, placeFromHash } from '../../src-renderer/state/hash-route.ts';
import { backlogNeedsAttention, windowTitle } from '../../src-renderer/state/signals.ts';
import { checkOf, notEnrolled, snapshotOf } from './fixtures.ts';

const now = Date.parse('2026-11-21T10:00:00.000Z');
const down = (guid: string) => checkOf({ guid, name: guid, health: 'down' });
const outbox = (unsent: number, oldestRanAt?: string) => ({ unsent, bytes: unsent * 300, dropped: 0, rejectedCount: 0, rejected: [], ...(oldestRanAt === undefined ? {} : { oldestRanAt }) });

describe('the window title says the state', () => {
  it.each([
    { name: 'two down', snapshot: snapshotOf({ checks: [down('a'), down('b'), checkOf({ guid: 'c', name: 'c' })] }), title: '2 down · Uptime Agent' },
    { name: 'all up', snapshot: snapshotOf({ checks: [checkOf({ guid: 'c', name: 'c' })] }), title: 'all up · Uptime Agent' },
    { name: 'down and offline', snapshot: snapshotOf({ checks: [down('a')], connectivity: { online: false } }), title: '1 down, offline · Uptime Agent' },
    { name: 'not enrolled', snapshot: notEnrolled(), title: 'Not enrolled · Uptime Agent' },
  ])('$name', ({ snapshot, title }) => {
    expect(windowTitle(snapshot, 'connected')).toBe(title);
  });
  it('says when the page lost the agent', () => {
    expect(windowTitle(snapshotOf(), 'reconnecting')).toBe('Disconnected · Uptime Agent');
  });
});

describe('the top pill', () => {
  it.each([
    { name: 'a check down is red', snapshot: snapshotOf({ checks: [down('a')] }), tone: 'bad', text: '1 down' },
    { name: 'offline is red', snapshot: snapshotOf({ connectivity: { online: false } }), tone: 'bad', text: 'Offline' },
    { name: 'paused is amber', snapshot: snapshotOf({ paused: true }), tone: 'warn', text: 'Paused' },
    { name: 'a late backlog is amber', snapshot: snapshotOf({ outbox: outbox(40, '2026-11-21T09:55:00.000Z') }), tone: 'warn', text: 'Results waiting to be sent' },
    { name: 'a fresh backlog is normal', snapshot: snapshotOf({ outbox: outbox(3, '2026-11-21T09:59:55.000Z') }), tone: 'ok', text: 'Online' },
  ])('$name', ({ snapshot, tone, text }) => {
    expect(statusOf(snapshot, now)).toEqual({ tone, text });
  });
});

describe('the Unsent badge rule', () => {
  it('appears only for a backlog older than a few upload intervals, or refused or dropped results', () => {
    expect(backlogNeedsAttention(snapshotOf({ outbox: outbox(500, '2026-11-21T09:59:50.000Z') }), now)).toBe(false);
    expect(backlogNeedsAttention(snapshotOf({ outbox: outbox(5, '2026-11-21T09:58:00.000Z') }), now)).toBe(true);
    expect(backlogNeedsAttention(snapshotOf({ outbox: { ...outbox(0), dropped: 3 } }), now)).toBe(true);
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
