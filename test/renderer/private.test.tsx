// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { PrivateView } from '../../src-renderer/views/PrivateView.tsx';
import { createFakeBridge, fail, ok } from './fake-bridge.ts';
import { appInfoOf, checkOf, snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

afterEach(cleanup);

const payroll = checkOf({
  guid: 'p1',
  name: 'Payroll',
  type: 'private',
  target: 'private',
  privateDefinition: true,
  runnable: false,
  health: 'not-run',
});
const missing = snapshotOf({
  checks: [payroll],
  privateDefinitions: {
    defined: [],
    matched: [],
    missing: [{ guid: 'p1', name: 'Payroll' }],
    unknown: [],
    problems: [],
  },
});
const matched: AgentSnapshot = snapshotOf({
  takenAt: '2026-11-21T10:00:02.000Z',
  checks: [{ ...payroll, runnable: true, health: 'up' }],
  privateDefinitions: {
    file: '/home/me/private.json',
    loadedAt: '2026-11-21T10:00:01.000Z',
    defined: ['p1', 'typo-guid'],
    matched: [{ guid: 'p1', name: 'Payroll' }],
    missing: [],
    unknown: ['typo-guid'],
    problems: [
      {
        guid: 'p2',
        index: 1,
        field: 'match_mode',
        severity: 'error',
        message: 'entry 2 (p2): match_mode must be "contains" or "not_contains"',
      },
    ],
  },
});

describe('Private definitions', () => {
  it('with no private checks: says how the file looks', async () => {
    renderView(<PrivateView />, createFakeBridge());
    expect(await screen.findByText('This monitor has no private checks')).toBeTruthy();
    expect(screen.getByText(/No file is in use/)).toBeTruthy();
  });

  it('on the web: lists the missing check, takes a typed path, then shows it matched', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(missing),
      'app:info': () => ok(appInfoOf({ host: 'web' })),
      'private:choose-file': () => ok(matched),
    });
    renderView(<PrivateView />, bridge);
    const region = await screen.findByRole('region', { name: /without a local definition \(1\)/ });
    expect(within(region).getByText('Payroll')).toBeTruthy();
    fireEvent.change(await screen.findByLabelText(/Path of the definitions file/), {
      target: { value: '  /home/me/private.json ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Use this file' }));
    expect(await screen.findByRole('region', { name: /Defined in the file and running \(1\)/ })).toBeTruthy();
    expect(bridge.callsTo('private:choose-file')).toEqual([{ file: '/home/me/private.json' }]);
    expect(screen.queryByRole('region', { name: /without a local definition/ })).toBeNull();
  });

  it('on the desktop: opens the file dialog instead of a path field', async () => {
    const bridge = createFakeBridge({ 'agent:snapshot': () => ok(missing), 'private:choose-file': () => ok(missing) });
    renderView(<PrivateView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Choose a file…' }));
    expect(screen.queryByLabelText(/Path of the definitions file/)).toBeNull();
    expect(bridge.callsTo('private:choose-file')).toEqual([{}]);
  });

  it('keeps definitions masked until revealed, and hides them again', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(matched),
      'private:reveal': () =>
        ok({ url: 'https://intranet.example/payroll', match_string: '', headers: { Authorization: 'Bearer s3cret' } }),
    });
    const { container } = renderView(<PrivateView />, bridge);
    await screen.findByRole('region', { name: /Defined in the file/ });
    expect(container.textContent).not.toContain('s3cret');
    fireEvent.click(screen.getByRole('button', { name: 'Reveal the definition of Payroll' }));
    expect(await screen.findByText('https://intranet.example/payroll')).toBeTruthy();
    expect(bridge.callsTo('private:reveal')).toEqual([{ guid: 'p1' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Hide the definition of Payroll' }));
    expect(container.textContent).not.toContain('s3cret');
  });

  it('lists unknown entries and problems by entry and field', async () => {
    renderView(<PrivateView />, createFakeBridge({ 'agent:snapshot': () => ok(matched) }));
    expect(await screen.findByText('typo-guid')).toBeTruthy();
    const row = screen.getByRole('row', { name: /match_mode must be/ });
    expect(row.textContent).toContain('p2');
    expect(row.textContent).toContain('#2');
    expect(row.textContent).toContain('error');
  });

  it('shows the file error and a failed reload', async () => {
    const broken = {
      ...matched,
      privateDefinitions: {
        ...matched.privateDefinitions,
        fileError: 'private definitions file /home/me/private.json is not valid JSON at line 3',
      },
    };
    renderView(
      <PrivateView />,
      createFakeBridge({
        'agent:snapshot': () => ok(broken),
        'private:reload': () => fail('failed'),
      }),
    );
    expect(
      (await screen.findByText('The file cannot be used as it is')).closest('[role="alert"]')?.textContent,
    ).toContain('line 3');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByText('The file could not be changed')).toBeTruthy();
  });
});
