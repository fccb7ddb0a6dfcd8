// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OverviewView } from '../../src-renderer/views/OverviewView.tsx';
import { createFakeBridge, fail, ok } from './fake-bridge.ts';
import { checkOf, notEnrolled, snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

// The fixtures' snapshots are taken at 10:00 on 2026-11-21: the window's clock says the same.
beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-21T10:00:00.000Z'), toFake: ['Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Overview', () => {
  it('when not enrolled: says so and offers to enroll', async () => {
    const { navigate } = renderView(<OverviewView />, createFakeBridge({ 'agent:snapshot': () => ok(notEnrolled()) }));
    expect(await screen.findByText('This agent is not enrolled yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enroll this agent' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'enroll' });
  });

  it('shows who it is, the link to the server and that nothing needs the user', async () => {
    renderView(
      <OverviewView />,
      createFakeBridge({
        'agent:snapshot': () =>
          ok(
            snapshotOf({
              outbox: {
                unsent: 3,
                bytes: 900,
                dropped: 0,
                rejectedCount: 0,
                rejected: [],
                oldestRanAt: '2026-11-21T09:59:00.000Z',
              },
            }),
          ),
      }),
    );
    const monitor = await screen.findByRole('article', { name: 'This monitor' });
    expect(monitor.textContent).toContain('office-pc');
    expect(monitor.textContent).toContain('abcdefghjkmn');
    expect(monitor.textContent).toContain('https://uptime.example');
    expect(screen.getByRole('article', { name: 'Connection' }).textContent).toContain('Online');
    expect(screen.getByRole('button', { name: '3 results' })).toBeTruthy();
    expect(screen.getByText(/No problems/)).toBeTruthy();
  });

  it('lists each problem with the button that fixes it', async () => {
    const problems = [
      { kind: 'key-rejected', action: 'enroll' },
      {
        kind: 'private-missing',
        checks: [{ guid: 'g1', name: 'Intranet' }],
        hasFile: false,
        action: 'private-definitions',
      },
      { kind: 'monitor-disabled', action: 'none' },
    ] as const;
    const { navigate } = renderView(
      <OverviewView />,
      createFakeBridge({ 'agent:snapshot': () => ok(snapshotOf({ problems: [...problems] })) }),
    );
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Choose a definitions file' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'private' });
    fireEvent.click(screen.getByRole('button', { name: 'Enroll again' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'enroll' });
  });

  it('shows the clock, connection and damaged-key problems with their message and action, once each', async () => {
    const problems = [
      { kind: 'clock-skew', skewSec: 300, action: 'none' },
      {
        kind: 'server-connection',
        failure: { kind: 'network', cause: 'untrusted-ca', issuer: 'Office CA' },
        action: 'none',
      },
      { kind: 'key-damaged', action: 'enroll' },
    ] as const;
    const bridge = createFakeBridge({
      'agent:snapshot': () =>
        ok(
          snapshotOf({
            problems: [...problems],
            sync: {
              ...snapshotOf().sync,
              failures: 2,
              lastError: 'the server certificate is not trusted',
              lastFailure: { kind: 'network', cause: 'untrusted-ca' },
            },
          }),
        ),
      'agent:sync-now': () => ok({ ok: true, done: { kind: 'sync', received: 2, stopped: 0 } }),
    });
    const { navigate } = renderView(<OverviewView />, bridge);
    const list = await screen.findByRole('list');
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toHaveLength(3);
    expect(items[0]).toContain('API key is damaged');
    expect(items.some((t) => t.includes('5 minutes behind'))).toBe(true);
    expect(items.some((t) => t.includes('add it in Settings. It is signed by Office CA.'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Enroll again' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'enroll' });
    fireEvent.click(screen.getByRole('button', { name: 'Try again now' }));
    expect(bridge.callsTo('agent:sync-now')).toHaveLength(1);
  });

  it('pauses and resumes checks, and says when a sync failed', async () => {
    const bridge = createFakeBridge({
      'agent:pause': () => ok(snapshotOf({ paused: true, takenAt: '2026-11-21T10:00:01.000Z' })),
      'agent:sync-now': () => ok({ ok: false, failure: { kind: 'timeout' } }),
    });
    renderView(<OverviewView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Pause checks' }));
    expect(await screen.findByRole('button', { name: 'Resume checks' })).toBeTruthy();
    expect(screen.getByText(/Paused — no check runs until you resume/)).toBeTruthy();

    bridge.answer('agent:sync-now', () => fail('failed'));
    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Sync failed');
  });

  it('leads with the checks that are down: since when, why, and a link to each', async () => {
    const failed = (guid: string, at: string, error: string) => ({
      check_guid: guid,
      ran_at: at,
      success: false,
      skipped: false,
      http_status: 503,
      latency_ms: 20,
      error,
    });
    const checks = [
      checkOf({ guid: 'w', name: 'Website' }),
      checkOf({
        guid: 's',
        name: 'Shop',
        health: 'down',
        lastResult: failed('s', '2026-11-21T09:59:50.000Z', 'status 503, expected 200'),
        downSince: '2026-11-21T09:53:00.000Z',
      }),
      checkOf({ guid: 'm', name: 'Mail', health: 'down', lastResult: failed('m', '2026-11-21T09:59:40.000Z', '') }),
    ];
    const { navigate } = renderView(
      <OverviewView />,
      createFakeBridge({ 'agent:snapshot': () => ok(snapshotOf({ checks })) }),
    );
    const down = await screen.findByRole('region', { name: '2 checks are down' });
    const items = within(down).getAllByRole('listitem');
    // The longest down comes first.
    expect(items[0]?.textContent).toMatch(/^Shopdown for 7 min \(since .+\)Status 503, expected 200\.$/);
    expect(items[1]?.textContent).toContain('The last run failed.');
    fireEvent.click(within(down).getByRole('button', { name: 'Shop' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'checks', guid: 's' });
    // Something is red, so the overview never says "No problems".
    expect(screen.queryByText(/No problems/)).toBeNull();
    expect(screen.getByText(/The agent itself is fine/)).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Connection' }).textContent).toContain(
      '3 checks: 1 up, 2 down, 0 pending, 0 skipped, 0 not run',
    );
  });

  it('offline, a failing server and a late backlog are problems with their actions', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () =>
        ok(snapshotOf({ connectivity: { online: false, offlineSince: '2026-11-21T09:50:00.000Z' } })),
      'agent:upload-now': () => ok({ ok: true, done: { kind: 'upload', delivered: 40, rejected: 0 } }),
      'agent:sync-now': () => ok({ ok: true, done: { kind: 'sync', received: 0, stopped: 0 } }),
    });
    const { navigate, unmount } = renderView(<OverviewView />, bridge);
    const offline = await screen.findByText(/This machine is offline since/);
    fireEvent.click(within(offline.closest('li') as HTMLElement).getByRole('button', { name: 'See outages' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'outages' });
    unmount();

    bridge.answer('agent:snapshot', () =>
      ok(
        snapshotOf({
          connection: {
            state: 'unreachable',
            since: '2026-11-21T09:41:00.000Z',
            lastSuccessAt: '2026-11-21T09:40:00.000Z',
            lastFailure: { kind: 'server', status: 503 },
          },
          sync: {
            failures: 3,
            lastError: 'GET https://uptime.example/api/checks answered 503',
            lastFailure: { kind: 'server', status: 503 },
            lastOkAt: '2026-11-21T09:40:00.000Z',
          },
          outbox: {
            unsent: 40,
            bytes: 12_000,
            dropped: 0,
            rejectedCount: 0,
            rejected: [],
            oldestRanAt: '2026-11-21T09:50:00.000Z',
          },
        }),
      ),
    );
    renderView(<OverviewView />, bridge);
    const problems = await screen.findByRole('region', { name: 'Problems of the agent' });
    const unavailable = within(problems).getByText(/The server is not answering as it should/);
    expect(unavailable.textContent).toContain('The server had a problem of its own (status 503)');
    expect(unavailable.textContent).not.toContain('/api/');
    fireEvent.click(within(problems).getByRole('button', { name: 'Send now' }));
    expect(bridge.callsTo('agent:upload-now')).toHaveLength(1);
    fireEvent.click(within(problems).getByRole('button', { name: 'Try again now' }));
    expect(bridge.callsTo('agent:sync-now')).toHaveLength(1);
  });
});
