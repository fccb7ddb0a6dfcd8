// @vitest-environment happy-dom
// The window's frame: loading, a failed first load, first-run enrollment, navigation, live
// updates pushed by the agent, and a lost connection.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSnapshot, IpcResult } from '../../src-main/ipc/contract.ts';
import { App } from '../../src-renderer/App.tsx';
import { announceConnection } from '../../src-renderer/bridge/connection.ts';
import { AgentProvider } from '../../src-renderer/state/agent-context.tsx';
import { createFakeBridge, deferred, fail, ok, type FakeBridge } from './fake-bridge.ts';
import { checkOf, notEnrolled, snapshotOf } from './fixtures.ts';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

const renderApp = (bridge: FakeBridge) =>
  render(
    <AgentProvider bridge={bridge}>
      <App />
    </AgentProvider>,
  );

describe('App', () => {
  it('says it is connecting until the first snapshot arrives', async () => {
    const first = deferred<IpcResult<AgentSnapshot>>();
    const bridge = createFakeBridge({ 'agent:snapshot': () => first.promise });
    renderApp(bridge);
    expect(screen.getByText('Connecting to the agent…')).toBeTruthy();
    await act(async () => {
      first.resolve(ok(snapshotOf()));
      await first.promise;
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeTruthy();
  });

  it('explains a failed first load and retries on request', async () => {
    const bridge = createFakeBridge({ 'agent:snapshot': () => fail('failed') });
    renderApp(bridge);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('could not be loaded');
    expect(alert.textContent).toContain('This could not be done: try again.');
    expect(alert.textContent).not.toMatch(/agent:snapshot|database/);
    bridge.answer('agent:snapshot', () => ok(snapshotOf()));
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeTruthy();
  });

  it('opens on the enrollment form when the agent is not enrolled', async () => {
    renderApp(createFakeBridge({ 'agent:snapshot': () => ok(notEnrolled()) }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Enroll this agent' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Agent status: Not enrolled' })).toBeTruthy();
  });

  it('moves between views from the view list, marking the current one', async () => {
    renderApp(createFakeBridge());
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    const nav = screen.getByRole('navigation', { name: 'Views' });
    fireEvent.click(within(nav).getByRole('button', { name: /^Outages/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Outages' })).toBeTruthy();
    expect(
      within(nav)
        .getByRole('button', { name: /^Outages/ })
        .getAttribute('aria-current'),
    ).toBe('page');
  });

  it('follows app:navigate, e.g. from a notification click, to a check', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(snapshotOf({ checks: [checkOf({ guid: 'g1', name: 'Shop', health: 'down' })] })),
    });
    renderApp(bridge);
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    act(() => bridge.emit('app:navigate', { view: 'checks', guid: 'g1' }));
    expect(await screen.findByRole('complementary', { name: 'Shop' })).toBeTruthy();
  });

  it('shows live updates pushed by the agent', async () => {
    const bridge = createFakeBridge();
    renderApp(bridge);
    await screen.findByRole('status', { name: 'Agent status: Online' });
    act(() =>
      bridge.emit(
        'agent:state-changed',
        snapshotOf({
          takenAt: '2026-11-21T10:00:05.000Z',
          connectivity: { online: false, offlineSince: '2026-11-21T10:00:01.000Z' },
        }),
      ),
    );
    expect(screen.getByRole('status', { name: 'Agent status: Offline' })).toBeTruthy();
    // An older snapshot arriving late does not roll the window back.
    act(() => bridge.emit('agent:state-changed', snapshotOf({ takenAt: '2026-11-21T09:00:00.000Z' })));
    expect(screen.getByRole('status', { name: 'Agent status: Offline' })).toBeTruthy();
  });

  it('says when the link to the agent dropped, and when the access token is stale', async () => {
    renderApp(createFakeBridge());
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    act(() => announceConnection('reconnecting'));
    expect(screen.getByText(/^Disconnected from the agent since/)).toBeTruthy();
    act(() => announceConnection('unauthorized'));
    expect(screen.getByText(/uptime-agent dashboard-url/)).toBeTruthy();
    act(() => announceConnection('connected'));
    expect(screen.queryByText(/^Disconnected from the agent/)).toBeNull();
  });

  it('keeps the view and the selected check in the URL hash: Back returns, a reload stays', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(snapshotOf({ checks: [checkOf({ guid: 'g1', name: 'Shop', health: 'down' })] })),
    });
    const first = renderApp(bridge);
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Views' })).getByRole('button', { name: /^Checks/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Shop', pressed: false }));
    expect(window.location.hash).toBe('#/checks/g1');
    expect(await screen.findByRole('complementary', { name: 'Shop' })).toBeTruthy();
    expect(document.title).toBe('1 down · Uptime Agent');

    // Back: the pane closes, the checks view stays. The window follows popstate, which fires
    // within back() here; inside act() the render it causes is done when act() returns (a fixed
    // sleep lost that race on a loaded machine).
    act(() => window.history.back());
    expect(window.location.hash).toBe('#/checks');
    expect(screen.queryByRole('complementary', { name: 'Shop' })).toBeNull();

    // A reload opens where the address points.
    window.history.replaceState(null, '', '#/checks/g1');
    first.unmount();
    const historyReads = bridge.callsTo('checks:history').length;
    renderApp(bridge);
    expect(await screen.findByRole('complementary', { name: 'Shop' })).toBeTruthy();
    // Escape closes the pane. Its key listener comes with the effect that reads its history; on a
    // loaded machine that can run after the pane is on screen.
    await waitFor(() => expect(bridge.callsTo('checks:history').length).toBeGreaterThan(historyReads));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('complementary', { name: 'Shop' })).toBeNull();
    expect(window.location.hash).toBe('#/checks');
  });

  it('a refused access token shows one message, not a second contradicting one', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => fail('token-refused'),
    });
    renderApp(bridge);
    act(() => announceConnection('unauthorized'));
    await screen.findByText('This page’s access link is no longer valid');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
