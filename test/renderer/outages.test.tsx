// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult, OutageRecord } from '../../src-main/ipc/contract.ts';
import { OutagesView } from '../../src-renderer/views/OutagesView.tsx';
import { createFakeBridge, deferred, fail, ok } from './fake-bridge.ts';
import { snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

afterEach(cleanup);

describe('Outages', () => {
  it('loads the history, then says there is none', async () => {
    const list = deferred<IpcResult<OutageRecord[]>>();
    renderView(<OutagesView />, createFakeBridge({ 'outages:list': () => list.promise }));
    expect(await screen.findByText('Loading the outage history…')).toBeTruthy();
    await act(async () => {
      list.resolve(ok([]));
      await list.promise;
    });
    expect(screen.getByText('No outages recorded')).toBeTruthy();
  });

  it('explains a failed load and tries again', async () => {
    const bridge = createFakeBridge({ 'outages:list': () => fail('failed') });
    renderView(<OutagesView />, bridge);
    expect((await screen.findByRole('alert')).textContent).toContain('This could not be done');
    bridge.answer('outages:list', () => ok([]));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No outages recorded')).toBeTruthy();
  });

  it('shows the current outage and the past ones, and reloads when connectivity changes', async () => {
    const offline = snapshotOf({
      connectivity: { online: false, offlineSince: '2026-11-21T09:58:00.000Z' },
      skippedOffline: 4,
    });
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(offline),
      'outages:list': () =>
        ok([
          { started_at: '2026-11-21T09:58:00.000Z', ended_at: null, duration_sec: null },
          { started_at: '2026-11-20T08:00:00.000Z', ended_at: '2026-11-20T08:03:05.000Z', duration_sec: 185 },
        ]),
    });
    renderView(<OutagesView />, bridge);
    expect(await screen.findByText('Offline now')).toBeTruthy();
    expect(screen.getByRole('row', { name: /ongoing/ })).toBeTruthy();
    expect(screen.getByRole('row', { name: /3 min 5 s/ })).toBeTruthy();
    expect(screen.getByText(/4 failed runs were kept as skipped/)).toBeTruthy();

    // The list is read once before the first snapshot and once for the offline state it shows;
    // that second read may still be pending when the banner is on screen (counting then, on a
    // loaded machine, took it for the reload).
    await waitFor(() => expect(bridge.callsTo('outages:list')).toHaveLength(2));
    bridge.answer('outages:list', () =>
      ok([{ started_at: '2026-11-21T09:58:00.000Z', ended_at: '2026-11-21T10:00:05.000Z', duration_sec: 125 }]),
    );
    act(() => bridge.emit('agent:state-changed', snapshotOf({ takenAt: '2026-11-21T10:00:09.000Z' })));
    expect(screen.queryByText('Offline now')).toBeNull();
    expect(bridge.callsTo('outages:list')).toHaveLength(3);
    expect(await screen.findByRole('row', { name: /2 min 5 s/ })).toBeTruthy();
    expect(screen.queryByRole('row', { name: /ongoing/ })).toBeNull();
  });
});
