// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry, IpcResult } from '../../src-main/ipc/contract.ts';
import { filterChecks, nextSort, sortChecks } from '../../src-renderer/checks/table-model.ts';
import { ChecksView } from '../../src-renderer/views/ChecksView.tsx';
import { createFakeBridge, deferred, fail, ok } from './fake-bridge.ts';
import { checkOf, notEnrolled, snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

afterEach(cleanup);

const checks = [
  checkOf({ guid: 'a', name: 'Website', health: 'up', intervalSec: 30 }),
  checkOf({
    guid: 'b',
    name: 'Shop',
    health: 'down',
    uptimePct: 50,
    lastResult: {
      check_guid: 'b',
      ran_at: '2026-11-21T09:59:40.000Z',
      success: false,
      skipped: false,
      http_status: 503,
      latency_ms: 20,
      error: 'status 503',
    },
  }),
  checkOf({
    guid: 'c',
    name: 'Payroll',
    type: 'private',
    target: 'private',
    privateDefinition: true,
    runnable: false,
    health: 'not-run',
    notRunReason: 'private check without a local definition: add it to the private definitions file',
    latency: [],
  }),
];
const withChecks = () => createFakeBridge({ 'agent:snapshot': () => ok(snapshotOf({ checks })) });
const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getByRole('rowheader').textContent);

describe('table model', () => {
  it.each([
    { name: 'text matches name, target, type or guid', text: 'shop', health: 'all' as const, expected: ['b'] },
    { name: 'health filter', text: '', health: 'down' as const, expected: ['b'] },
    { name: 'needs attention = down or not run', text: '', health: 'problems' as const, expected: ['b', 'c'] },
    { name: 'private target', text: 'private', health: 'all' as const, expected: ['c'] },
  ])('filters: $name', ({ text, health, expected }) => {
    expect(filterChecks(checks, text, health).map((c) => c.guid)).toEqual(expected);
  });

  it('sorts by state worst first, and flips direction on a second click', () => {
    expect(sortChecks(checks, { key: 'health', direction: 'ascending' }).map((c) => c.name)).toEqual([
      'Shop',
      'Payroll',
      'Website',
    ]);
    const sort = nextSort({ key: 'name', direction: 'ascending' }, 'name');
    expect(sort.direction).toBe('descending');
    expect(sortChecks(checks, sort).map((c) => c.name)).toEqual(['Website', 'Shop', 'Payroll']);
    expect(nextSort(sort, 'uptime')).toEqual({ key: 'uptime', direction: 'ascending' });
  });
});

describe('Checks view', () => {
  it('when not enrolled: explains where checks come from', async () => {
    const { navigate } = renderView(
      (place) => <ChecksView selected={place.guid} />,
      createFakeBridge({ 'agent:snapshot': () => ok(notEnrolled()) }),
    );
    expect(await screen.findByText('No checks yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enroll this agent' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'enroll' });
  });

  it('when enrolled without checks: says to assign some, and can sync now', async () => {
    const bridge = createFakeBridge({
      'agent:sync-now': () => ok({ ok: true, done: { kind: 'sync', received: 0, stopped: 0 } }),
    });
    renderView((place) => <ChecksView selected={place.guid} />, bridge);
    expect(await screen.findByText(/Assign checks to it on the server/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(bridge.callsTo('agent:sync-now')).toHaveLength(1);
  });

  it('shows every check, private targets hidden, sortable with aria-sort', async () => {
    renderView((place) => <ChecksView selected={place.guid} />, withChecks());
    await screen.findByRole('table');
    expect(rowNames()).toEqual(['Shop', 'Payroll', 'Website']);
    expect(screen.getByRole('row', { name: /Payroll/ }).textContent).toContain('private');
    expect(screen.getByRole('row', { name: /Payroll/ }).textContent).toContain('Not run');
    expect(screen.getAllByRole('img', { name: /Latency of the last 5 runs: 11 to 40 ms, latest 13 ms/ })).toHaveLength(
      2,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: 'State' }).getAttribute('aria-sort')).toBe('none');
    expect(rowNames()).toEqual(['Payroll', 'Shop', 'Website']);
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('filters, and offers to clear a filter that matches nothing', async () => {
    renderView((place) => <ChecksView selected={place.guid} />, withChecks());
    fireEvent.change(await screen.findByLabelText('Filter'), { target: { value: 'zzz' } });
    expect(screen.getByText('No check matches the filter')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filter' }));
    expect(rowNames()).toHaveLength(3);
    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'down' } });
    expect(rowNames()).toEqual(['Shop']);
  });

  it('opens a detail pane with recent results (loading, then the list with errors)', async () => {
    const history = deferred<IpcResult<HistoryEntry[]>>();
    const bridge = withChecks();
    bridge.answer('checks:history', () => history.promise);
    renderView((place) => <ChecksView selected={place.guid} />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Shop' }));
    const pane = screen.getByRole('complementary', { name: 'Shop' });
    expect(within(pane).getByText('Loading recent results…')).toBeTruthy();
    expect(bridge.callsTo('checks:history')).toEqual([{ guid: 'b', limit: 50 }]);
    history.resolve(
      ok([
        {
          check_guid: 'b',
          ran_at: '2026-11-21T09:59:40.000Z',
          success: false,
          skipped: false,
          http_status: 503,
          latency_ms: 20,
          error: 'status 503 Service Unavailable',
        },
      ]),
    );
    expect(await within(pane).findByText('status 503 Service Unavailable')).toBeTruthy();
    fireEvent.click(within(pane).getByRole('button', { name: 'Close the details of Shop' }));
    expect(screen.queryByRole('complementary')).toBeNull();
  });

  it('says why a check is not run, and when its history cannot be read', async () => {
    const bridge = withChecks();
    bridge.answer('checks:history', () => fail('failed'));
    renderView((place) => <ChecksView selected={place.guid} />, bridge, { view: 'checks', guid: 'c' });
    const pane = await screen.findByRole('complementary', { name: 'Payroll' });
    expect(within(pane).getByText(/add it to the private definitions file/)).toBeTruthy();
    expect((await within(pane).findByRole('alert')).textContent).toContain('This could not be done');
  });

  it('moves the selection with the arrow keys', async () => {
    renderView((place) => <ChecksView selected={place.guid} />, withChecks());
    const first = await screen.findByRole('button', { name: 'Shop' });
    fireEvent.click(first);
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(screen.getByRole('complementary', { name: 'Payroll' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Payroll' }).getAttribute('aria-pressed')).toBe('true');
  });
});
