// @vitest-environment happy-dom
// The server's absences in the window (issue 25): built by the agent's own tracker from a
// connection refused for 40 s while 12 results waited and then drained, shown in Outages beside
// this machine's own offline periods as their own kind, and in Events as one card, in words
// (local times, no ISO timestamps, URLs or errno names). "Reached the server every time" is only
// said when there were neither.
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { createServerAbsences } from '../../src-main/agent/health/server-absences.ts';
import { nextConnection } from '../../src-main/agent/live/connection.ts';
import { createLiveState, initialState } from '../../src-main/agent/live/state.ts';
import { openDatabase } from '../../src-main/agent/store/database.ts';
import { createEventLog } from '../../src-main/agent/store/events.ts';
import { EventsView } from '../../src-renderer/views/EventsView.tsx';
import { OutagesView } from '../../src-renderer/views/OutagesView.tsx';
import { createFakeBridge, ok } from './fake-bridge.ts';
import { snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

const startMs = Date.parse('2026-11-21T10:00:00.000Z');
const machineText = /\d{4}-\d\d-\d\dT|https?:\/\/|E[A-Z]{4,}|GET |POST /;

beforeEach(() => {
  vi.useFakeTimers({ now: startMs + 120_000, toFake: ['Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The agent's record of a server refusing connections for 40 s, 12 results waiting, then drained. */
function agentRecord(options: { back: boolean; blipFirst?: boolean }) {
  const db = openDatabase(':memory:');
  let nowMs = startMs;
  let waiting = 0;
  const live = createLiveState(initialState(new Date(nowMs), 0));
  const absences = createServerAbsences({
    db,
    live,
    waiting: () => waiting,
    now: () => new Date(nowMs),
    log: silentLogger,
  });
  const call = (ok: boolean): void =>
    live.update((s) => ({
      ...s,
      connection: nextConnection(
        s.connection,
        ok ? undefined : { kind: 'network', cause: 'refused', message: 'connect ECONNREFUSED 127.0.0.1:9' },
        new Date(nowMs).toISOString(),
      ),
    }));
  call(true);
  if (options.blipFirst === true) {
    nowMs -= 60_000;
    call(false);
    nowMs += 3_000;
    call(true);
    nowMs += 57_000;
  }
  for (let i = 0; i < 8; i++) {
    call(false);
    waiting += 1;
    nowMs += 5_000;
  }
  waiting = 12;
  live.update((s) => s);
  if (options.back) {
    call(true);
    nowMs += 2_000;
    waiting = 0;
    live.update((s) => ({ ...s, uploading: { delivered: 12 } }));
  }
  return { absences: absences.list(), events: createEventLog(db).list({ limit: 100 }) };
}

const offline = { started_at: '2026-11-20T08:00:00.000Z', ended_at: '2026-11-20T08:03:05.000Z', duration_sec: 185 };

describe('server absences in the window', () => {
  it('Outages: the server unreachable beside this machine offline, each its own kind, with what waited and drained', async () => {
    const record = agentRecord({ back: true });
    renderView(
      <OutagesView />,
      createFakeBridge({ 'outages:list': () => ok([offline]), 'server-absences:list': () => ok(record.absences) }),
    );
    const server = await screen.findByRole('row', { name: /Server unreachable/ });
    expect(server.textContent).toContain('40 s');
    expect(server.textContent).toContain('it refused connections');
    expect(server.textContent).toMatch(/12 results waited; all were delivered by/);
    expect(screen.getByRole('row', { name: /This machine was offline/ }).textContent).toContain('3 min 5 s');
    expect(screen.queryByText('No outages recorded')).toBeNull();
    expect(document.body.textContent).not.toMatch(machineText);
  });

  it('Outages: never says the server was reached every time when only the server was away, or while it is away', async () => {
    renderView(
      <OutagesView />,
      createFakeBridge({ 'server-absences:list': () => ok(agentRecord({ back: true }).absences) }),
    );
    expect(await screen.findByRole('row', { name: /Server unreachable/ })).toBeTruthy();
    expect(screen.queryByText(/reached the server every time/)).toBeNull();
    cleanup();

    const away = snapshotOf({ connection: { state: 'unreachable', since: '2026-11-21T10:00:00.000Z' } });
    renderView(<OutagesView />, createFakeBridge({ 'agent:snapshot': () => ok(away) }));
    await screen.findByText('Outages');
    expect(screen.queryByText(/reached the server every time/)).toBeNull();
    cleanup();

    renderView(<OutagesView />, createFakeBridge());
    expect(await screen.findByText(/reached the server every time/)).toBeTruthy();
  });

  it('Events: one card for the absence, ongoing then closed, in words', async () => {
    const ongoing = agentRecord({ back: false });
    expect(ongoing.events).toHaveLength(1);
    renderView(<EventsView />, createFakeBridge({ 'events:list': () => ok(ongoing.events) }), { view: 'events' });
    let card = await screen.findByRole('listitem');
    expect(card.textContent).toMatch(/^The server cannot be reached for 2 min/);
    expect(card.textContent).toContain('The last time it was tried, it refused connections.');
    expect(card.textContent).toContain('12 results are waiting here');
    expect(card.textContent).not.toMatch(machineText);
    cleanup();

    const back = agentRecord({ back: true });
    expect(back.events).toHaveLength(1);
    renderView(<EventsView />, createFakeBridge({ 'events:list': () => ok(back.events) }), { view: 'events' });
    const list = await screen.findByRole('list', { name: 'Events, newest first' });
    card = within(list).getByRole('listitem');
    expect(card.textContent).toMatch(/^Server unreachable .+–.+ \(40 s\)/);
    expect(card.textContent).toContain('12 results waited; all were delivered by');
    expect(card.textContent).not.toMatch(machineText);
  });

  it('Events: a card whose backlog is still draining is read again as the unsent count goes down', async () => {
    const [event] = agentRecord({ back: true }).events;
    if (event?.absence === undefined) throw new Error('no absence recorded');
    const draining = { ...event, absence: { ...event.absence, delivered_after: 3, drained_at: null } };
    const bridge = createFakeBridge({
      'agent:snapshot': () =>
        ok(snapshotOf({ outbox: { unsent: 9, bytes: 0, dropped: 0, rejectedCount: 0, rejected: [] } })),
      'events:list': () => ok([draining]),
    });
    renderView(<EventsView />, bridge, { view: 'events' });
    expect(await screen.findByText(/12 results waited; 3 delivered so far/)).toBeTruthy();
    bridge.answer('events:list', () => ok([event]));
    act(() =>
      bridge.emit(
        'agent:state-changed',
        snapshotOf({ outbox: { unsent: 0, bytes: 0, dropped: 0, rejectedCount: 0, rejected: [] } }),
      ),
    );
    expect(await screen.findByText(/12 results waited; all were delivered by/)).toBeTruthy();
  });

  it('Events: a server that came and went is one card, on and off, with how many times', async () => {
    const record = agentRecord({ back: true, blipFirst: true });
    expect(record.absences).toHaveLength(2);
    renderView(<EventsView />, createFakeBridge({ 'events:list': () => ok(record.events) }), { view: 'events' });
    const card = await screen.findByRole('listitem');
    expect(card.textContent).toMatch(/^Server unreachable on and off .+–.+ \(1 min 40 s\)/);
    expect(card.textContent).toContain('it could not be reached 2 times');
  });

  it('Outages: a server absence while this machine was offline says so', async () => {
    const record = agentRecord({ back: true });
    const overlapping = {
      started_at: '2026-11-21T10:00:10.000Z',
      ended_at: '2026-11-21T10:00:30.000Z',
      duration_sec: 20,
    };
    renderView(
      <OutagesView />,
      createFakeBridge({
        'outages:list': () => ok([overlapping, offline]),
        'server-absences:list': () => ok(record.absences),
      }),
    );
    const server = await screen.findByRole('row', { name: /Server unreachable/ });
    expect(server.textContent).toContain('This machine was offline during part of it.');
    expect(screen.getAllByRole('row', { name: /^This machine was offline/ })).toHaveLength(2);
  });
});
