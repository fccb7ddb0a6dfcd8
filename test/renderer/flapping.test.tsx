// @vitest-environment happy-dom
// A flapping check in the window: the Events view shows the agent's own log of a check changing
// state every 20 s for 3 minutes as one card with its pattern, under the check that is down right
// now; the Overview lists it once, apart from the down checks (issue 25).
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTransitionTracker } from '../../src-main/agent/runs/transitions.ts';
import { openDatabase } from '../../src-main/agent/store/database.ts';
import { createEventLog, type AgentEvent } from '../../src-main/agent/store/events.ts';
import { EventsView } from '../../src-renderer/views/EventsView.tsx';
import { OverviewView } from '../../src-renderer/views/OverviewView.tsx';
import { createFakeBridge, ok } from './fake-bridge.ts';
import { checkOf, snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';
import { runOutcome } from '../support/probe-outcomes.ts';

const startMs = Date.parse('2026-11-21T09:50:00.000Z');
const endMs = startMs + 3 * 60_000;

beforeEach(() => {
  vi.useFakeTimers({ now: endMs, toFake: ['Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The agent's event log after Intranet went down and Shop flapped every 20 s for 3 minutes. */
function agentLog(): AgentEvent[] {
  const log = createEventLog(openDatabase(':memory:'));
  let now = startMs - 60_000;
  const tracker = createTransitionTracker(log, () => new Date(now));
  const run = (guid: string, name: string, success: boolean): void =>
    void tracker.observe(
      { guid, name, skipped: false, error: success ? '' : 'status 503, expected 200' },
      runOutcome(success),
      new Date(now),
    );
  run('intranet', 'Intranet', false);
  for (now = startMs; now < endMs; now += 10_000) run('shop', 'Shop', Math.floor((now - startMs) / 20_000) % 2 === 1);
  return log.list({ limit: 100 });
}

describe('a flapping check in the window', () => {
  it('Events: one card for the flapping check, with its pattern, under the check that is down now', async () => {
    renderView(<EventsView />, createFakeBridge({ 'events:list': () => ok(agentLog()) }), { view: 'events' });
    const list = await screen.findByRole('list', { name: 'Events, newest first' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[0]?.textContent).toMatch(/^Intranet down for 4 min/);
    expect(cards[1]?.textContent).toContain('Shop keeps going down and up for 3 min');
    expect(cards[1]?.textContent).toContain('It went down 5 times, 1 min 20 s down in all.');
    expect(cards[1]?.textContent).toContain('you are told if it stays down');
    expect(cards[1]?.querySelectorAll('.flap-down')).toHaveLength(5);
  });

  it('Overview: the flapping check once, apart from the down checks, with its last runs', async () => {
    const snapshot = snapshotOf({
      checks: [
        checkOf({ guid: 'intranet', name: 'Intranet', health: 'down', downSince: '2026-11-21T09:49:00.000Z' }),
        checkOf({
          guid: 'shop',
          name: 'Shop',
          health: 'down',
          flapping: { since: '2026-11-21T09:50:00.000Z', changes: 9 },
          beats: 'ddudduudduu'.repeat(2),
        }),
      ],
    });
    renderView(<OverviewView />, createFakeBridge({ 'agent:snapshot': () => ok(snapshot) }));
    const down = await screen.findByRole('region', { name: '1 check is down' });
    expect(down.textContent).toContain('Intranet');
    expect(down.textContent).not.toContain('Shop');
    const flapping = screen.getByRole('region', { name: '1 check keeps going down and up' });
    expect(flapping.textContent).toContain('Shop');
    expect(flapping.textContent).toContain('changing state for 3 min');
    expect(flapping.textContent).toContain('Failing right now; you are told if it stays down.');
    expect(within(flapping).getByRole('group', { name: /^Shop: Last 22 runs/ })).toBeTruthy();
  });
});
