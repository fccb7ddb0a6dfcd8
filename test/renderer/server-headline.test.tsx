// @vitest-environment happy-dom
// Issue 25 points 1 and 2: the server's connection state (decided once in the agent) is the
// headline of the window — the pill, the title and the Overview's Connection card — and the one
// source of every "not answering" / "failing" text, so that nothing still says otherwise once it
// is connected again. "Online" is this machine's network, never the headline while the server is away.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { App } from '../../src-renderer/App.tsx';
import { AgentProvider } from '../../src-renderer/state/agent-context.tsx';
import { OverviewView } from '../../src-renderer/views/OverviewView.tsx';
import { createFakeBridge, ok } from './fake-bridge.ts';
import { snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';
import { resultsKeptSentences } from './said-once.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-21T10:00:00.000Z'), toFake: ['Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

const refused = { kind: 'network', cause: 'refused' } as const;

/** The server refusing every call for 4 minutes while this machine's network is fine. */
const unreachable = (): AgentSnapshot =>
  snapshotOf({
    connectivity: { online: true, lastContactAt: '2026-11-21T09:56:00.000Z' },
    connection: {
      state: 'unreachable',
      since: '2026-11-21T09:56:10.000Z',
      lastSuccessAt: '2026-11-21T09:56:00.000Z',
      lastFailure: refused,
    },
    sync: {
      failures: 4,
      lastOkAt: '2026-11-21T09:55:00.000Z',
      lastAttemptAt: '2026-11-21T09:59:50.000Z',
      lastFailure: refused,
    },
    upload: {
      failures: 6,
      lastOkAt: '2026-11-21T09:56:00.000Z',
      lastAttemptAt: '2026-11-21T09:59:55.000Z',
      lastFailure: refused,
    },
  });

const renderApp = (snapshot: AgentSnapshot) =>
  render(
    <AgentProvider bridge={createFakeBridge({ 'agent:snapshot': () => ok(snapshot) })}>
      <App />
    </AgentProvider>,
  );

/** The Overview alone, over an agent answering this snapshot. */
const renderOverview = (snapshot: AgentSnapshot) =>
  renderView(<OverviewView />, createFakeBridge({ 'agent:snapshot': () => ok(snapshot) }));

describe('the headline follows the server connection, not the machine network', () => {
  it('server unreachable while online: the pill and the title say the server cannot be reached, not "Online"', async () => {
    renderApp(unreachable());
    const pill = await screen.findByRole('status', { name: /^Agent status:/ });
    expect(pill.textContent).toMatch(/^Server unreachable since \d/);
    expect(pill.className).toContain('pill-warn');
    // The title is set in an effect after the render that shows the pill: wait for it.
    await waitFor(() => expect(document.title).toMatch(/^Server unreachable since .+ · Uptime Agent$/));
    expect(document.title).not.toContain('Online');
  });

  it.each([
    { state: 'rejected', auth: 'key-rejected', pill: 'Key not accepted by the server' },
    { state: 'disabled', auth: 'monitor-disabled', pill: 'Monitor disabled on the server' },
  ] as const)('server $state: the pill says so in red', async ({ state, auth, pill }) => {
    renderApp(snapshotOf({ auth, connection: { state, since: '2026-11-21T09:58:00.000Z' } }));
    const shown = await screen.findByRole('status', { name: `Agent status: ${pill}` });
    expect(shown.className).toContain('pill-bad');
    await waitFor(() => expect(document.title).toBe(`${pill} · Uptime Agent`));
  });

  it('the Connection card leads with the server, and keeps Online as a fact about this machine, not in green', async () => {
    renderOverview(unreachable());
    const card = await screen.findByRole('article', { name: 'Connection' });
    expect(within(card).getByText(/^Cannot be reached since/).className).toContain('warn-text');
    expect(card.textContent).toContain('This machine’s network');
    expect(card.querySelector('.ok-text')).toBeNull();
    const problems = screen.getByRole('region', { name: 'Problems of the agent' });
    expect(problems.textContent).toMatch(/The server cannot be reached since/);
    expect(problems.textContent).toContain('refused');
    // The card does not repeat the reason the problem gives.
    expect(card.textContent).toContain('failing until the server answers again');
  });

  it.each([
    { name: 'no cause', failure: { kind: 'network' } },
    { name: 'a timeout', failure: { kind: 'timeout' } },
    { name: 'a server error', failure: { kind: 'server', status: 502 } },
  ] as const)('the server away with $name: the problem says once that results wait', async ({ failure }) => {
    const away = unreachable();
    renderOverview({ ...away, connection: { ...away.connection, lastFailure: failure } });
    const problems = await screen.findByRole('region', { name: 'Problems of the agent' });
    // "results wait here and checks go on", then the failure's own "the agent keeps the results".
    expect(resultsKeptSentences(problems.textContent)).toHaveLength(1);
  });
});

describe('no stale warning once the server answers again', () => {
  it('connected with an older failed sync: nothing says failing or not answering', async () => {
    renderOverview(
      snapshotOf({
        connection: {
          state: 'connected',
          since: '2026-11-21T09:59:40.000Z',
          lastSuccessAt: '2026-11-21T09:59:58.000Z',
        },
        // The sync loop has not run since the server came back: its last failure is from before.
        sync: {
          failures: 3,
          lastOkAt: '2026-11-21T09:56:46.000Z',
          lastAttemptAt: '2026-11-21T09:58:30.000Z',
          lastFailure: refused,
        },
        upload: { failures: 0, lastOkAt: '2026-11-21T09:59:58.000Z' },
      }),
    );
    const card = await screen.findByRole('article', { name: 'Connection' });
    expect(card.textContent).toContain('Connected');
    const page = document.body.textContent;
    expect(page).not.toMatch(/failing|not answering|cannot be reached|refused/i);
    expect(screen.getByText(/No problems/)).toBeTruthy();
  });

  it('connected, but the server refuses a payload after it came back: that failure is current and shown', async () => {
    renderOverview(
      snapshotOf({
        connection: {
          state: 'connected',
          since: '2026-11-21T09:50:00.000Z',
          lastSuccessAt: '2026-11-21T09:59:58.000Z',
        },
        upload: {
          failures: 1,
          lastOkAt: '2026-11-21T09:49:00.000Z',
          lastAttemptAt: '2026-11-21T09:59:00.000Z',
          lastFailure: { kind: 'rejected', status: 400 },
        },
      }),
    );
    const card = await screen.findByRole('article', { name: 'Connection' });
    expect(card.textContent).toContain('failing');
  });

  it('the server answers sync but 503 to every upload: the uploads are failing, even just after a sync got through', async () => {
    renderOverview(
      snapshotOf({
        // The sync a moment ago made the connection 'connected' again; the upload before it
        // got 503, as every upload for minutes: that says nothing was disproven.
        connection: {
          state: 'connected',
          since: '2026-11-21T09:59:58.000Z',
          lastSuccessAt: '2026-11-21T09:59:58.000Z',
        },
        sync: { failures: 0, lastOkAt: '2026-11-21T09:59:58.000Z', lastAttemptAt: '2026-11-21T09:59:58.000Z' },
        upload: {
          failures: 7,
          lastOkAt: '2026-11-21T09:50:00.000Z',
          lastAttemptAt: '2026-11-21T09:59:50.000Z',
          lastFailure: { kind: 'server', status: 503 },
        },
      }),
    );
    const card = await screen.findByRole('article', { name: 'Connection' });
    expect(within(card).getByText(/Last upload/).parentElement?.textContent).toContain('failing');
  });
});
