// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OverviewView } from '../../src-renderer/views/OverviewView.tsx';
import { createFakeBridge, fail, ok } from './fake-bridge.ts';
import { notEnrolled, snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

afterEach(cleanup);

describe('Overview', () => {
  it('when not enrolled: says so and offers to enroll', async () => {
    const { navigate } = renderView(<OverviewView />, createFakeBridge({ 'agent:snapshot': () => ok(notEnrolled()) }));
    expect(await screen.findByText('This agent is not enrolled yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enroll this agent' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'enroll' });
  });

  it('shows who it is, the link to the server and that nothing needs the user', async () => {
    renderView(<OverviewView />, createFakeBridge({ 'agent:snapshot': () => ok(snapshotOf({ outbox: { unsent: 3, bytes: 900, dropped: 0, rejectedCount: 0, rejected: [], oldestRanAt: '2026-11-21T09:59:00.000Z' } })) }));
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
      { kind: 'key-rejected', message: 'The server refused this monitor’s API key.', action: 'enroll', actionLabel: 'Enroll again' },
      { kind: 'private-missing', message: '1 private check has no local definition.', action: 'private-definitions', actionLabel: 'Choose a definitions file' },
      { kind: 'monitor-disabled', message: 'The server has disabled this monitor.', action: 'none', actionLabel: '' },
    ] as const;
    const { navigate } = renderView(<OverviewView />, createFakeBridge({ 'agent:snapshot': () => ok(snapshotOf({ problems: [...problems] })) }));
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Choose a definitions file' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'private' });
    fireEvent.click(screen.getByRole('button', { name: 'Enroll again' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'enroll' });
  });

  it('pauses and resumes checks, and says when a sync failed', async () => {
    const bridge = createFakeBridge({
      'agent:pause': () => ok(snapshotOf({ paused: true, takenAt: '2026-11-21T10:00:01.000Z' })),
      'agent:sync-now': () => ok({ ok: false, message: 'the server did not answer' }),
    });
    renderView(<OverviewView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Pause checks' }));
    expect(await screen.findByRole('button', { name: 'Resume checks' })).toBeTruthy();
    expect(screen.getByText(/Paused — no check runs until you resume/)).toBeTruthy();

    bridge.answer('agent:sync-now', () => fail('agent:sync-now failed: not enrolled'));
    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Sync failed');
  });
});
