// @vitest-environment happy-dom
// A private check whose entry has a field error: the Private view and the check's detail name
// the field and what to change, the detail shows its last kept run and why Run now is off (issue 25).
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckDetail } from '../../src-renderer/checks/CheckDetail.tsx';
import { PrivateView } from '../../src-renderer/views/PrivateView.tsx';
import { createFakeBridge, ok } from './fake-bridge.ts';
import { checkOf, snapshotOf, windowOf } from './fixtures.ts';
import { renderView } from './render.tsx';

afterEach(cleanup);

const detail = 'url must start with http://, https://, tcp:// or tls://';
const payroll = checkOf({
  guid: 'p',
  name: 'Payroll',
  type: 'private',
  target: 'private',
  privateDefinition: true,
  runnable: false,
  health: 'not-run',
  notRunReason: `its entry in the private definitions file cannot be used: ${detail}. Fix this in the file and save it: it is read again by itself`,
  entryErrors: [{ field: 'url', detail }],
});
const snapshot = snapshotOf({
  checks: [payroll],
  privateDefinitions: {
    file: '/home/me/private.json',
    defined: [],
    matched: [],
    missing: [],
    invalid: [{ guid: 'p', name: 'Payroll' }],
    unknown: [],
    problems: [
      {
        guid: 'p',
        index: 0,
        field: 'url',
        severity: 'error',
        message: `check "p" (entry 1): ${detail}; this check is not run until it is fixed`,
        detail,
      },
    ],
  },
});

describe('a private entry with a field error', () => {
  it('the Private view lists it as an entry with an error, by field, not as missing', async () => {
    renderView(<PrivateView />, createFakeBridge({ 'agent:snapshot': () => ok(snapshot) }), { view: 'private' });
    const card = await screen.findByRole('region', { name: 'Private checks whose entry has an error (1)' });
    expect(card.textContent).toContain('Payroll');
    // The field is named once, marked in the reader's sentence: not "Field url: url must …".
    expect(card.textContent).toContain(detail);
    expect(within(card).getByText('url', { selector: 'code' })).toBeTruthy();
    expect(card.textContent).not.toContain('Field url');
    expect(screen.queryByText(/without a local definition/)).toBeNull();
  });

  it('its detail names the field, shows its last kept run and why Run now is off', async () => {
    renderView(
      <CheckDetail check={payroll} onClose={() => undefined} />,
      createFakeBridge({
        'agent:snapshot': () => ok(snapshot),
        'checks:window': (args) => ok(windowOf({ range: args.range })),
      }),
      { view: 'checks', guid: 'p' },
    );
    const pane = await screen.findByRole('complementary', { name: 'Payroll' });
    expect(pane.textContent).toContain('Not run: its entry in the private definitions file has an error');
    expect(pane.textContent).toContain(detail);
    expect(pane.textContent).not.toContain('Field url');
    expect(await within(pane).findByText(/^Last run .*: passed, HTTP 200\. Its timings are kept only/)).toBeTruthy();
    expect(pane.textContent).not.toContain('No run since the agent started');
    const runNow = within(pane).getByRole('button', { name: 'Run now' });
    expect((runNow as HTMLButtonElement).disabled).toBe(true);
    expect(runNow.getAttribute('aria-describedby')).toBe('no-run-p');
  });
});
