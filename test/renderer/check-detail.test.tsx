// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChecksView } from '../../src-renderer/views/ChecksView.tsx';
import { createFakeBridge, ok } from './fake-bridge.ts';
import { checkOf, snapshotOf, windowOf } from './fixtures.ts';
import { renderView } from './render.tsx';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-21T10:00:00.000Z'), toFake: ['Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const t0 = Date.parse('2026-11-21T09:00:00.000Z');
const shop = checkOf({
  guid: 's',
  name: 'Shop',
  health: 'down',
  downSince: '2026-11-21T09:53:00.000Z',
  beats: 'uuudd',
});

describe('check detail', () => {
  it('shows uptime per named window, the chart in words for the chosen window, the last run and the events', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(snapshotOf({ checks: [shop] })),
      'checks:window': (args) =>
        ok(
          windowOf({
            range: args.range,
            buckets: [
              { startMs: t0, runs: 60, failures: 2, skipped: 0, latency: { min: 5, median: 12, p95: 30, max: 80 } },
            ],
            uptime: {
              '1h': { runs: 60, failures: 2, skipped: 0 },
              '24h': { runs: 1440, failures: 12, skipped: 0 },
              '7d': { runs: 10_080, failures: 12, skipped: 0 },
            },
            lastRun: {
              ranAt: '2026-11-21T09:59:30.000Z',
              success: false,
              httpStatus: 503,
              latencyMs: 13,
              error: 'status 503, expected 200',
              decidedBy: 'status',
              timings: { dnsMs: 1, connectMs: 2, firstByteMs: 9, totalMs: 13 },
              certificate: {
                subject: 'CN=shop.test',
                issuer: 'CN=Test CA',
                validTo: '2027-01-01T00:00:00Z',
                daysLeft: 41,
              },
              test: false,
            },
            events: [
              {
                id: 1,
                kind: 'down',
                checkGuid: 's',
                checkName: 'Shop',
                startedAt: '2026-11-21T09:53:00.000Z',
                reason: 'status 503, expected 200',
              },
            ],
          }),
        ),
      'checks:test-run': () =>
        ok({
          ok: true,
          run: {
            ranAt: '2026-11-21T10:00:00.000Z',
            success: true,
            httpStatus: 200,
            latencyMs: 8,
            error: '',
            decidedBy: 'all-rules',
            timings: { totalMs: 8 },
            test: true,
          },
        }),
    });
    renderView((place) => <ChecksView selected={place.guid} />, bridge, { view: 'checks', guid: 's' });
    const pane = await screen.findByRole('complementary', { name: 'Shop' });
    await within(pane).findByText('last 24 h');
    expect(pane.textContent).toContain('99.2 %');
    expect(within(pane).getByText(/^Latency over the last hour: typically 12 ms, at worst 80 ms/)).toBeTruthy();
    fireEvent.click(within(pane).getByRole('button', { name: '24 h' }));
    expect(await within(pane).findByText(/^Latency over the last 24 hours/)).toBeTruthy();
    expect(bridge.callsTo('checks:window').at(-1)).toEqual({ guid: 's', range: '24h' });
    expect(within(pane).getByRole('button', { name: '24 h' }).getAttribute('aria-pressed')).toBe('true');

    const last = within(pane).getByRole('region', { name: 'Last run' });
    expect(last.textContent).toMatch(/Failed · HTTP 503 · 13 ms · decided by the status rule/);
    expect(last.textContent).toContain('CN=shop.test');
    expect(last.textContent).toContain('in 41 days');
    expect(within(last).getByText('First byte')).toBeTruthy();
    expect(within(pane).getByRole('list', { name: 'Events of Shop, newest first' }).textContent).toMatch(
      /^Shop down for 7 min/,
    );

    fireEvent.click(within(pane).getByRole('button', { name: 'Run now' }));
    const test = await within(pane).findByRole('region', { name: 'Test run' });
    expect(test.textContent).toMatch(/Passed · HTTP 200 · 8 ms · decided by every rule/);
    expect(test.textContent).toContain('test run, not uploaded');
  });

  it('says why a test run did not happen', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(snapshotOf({ checks: [shop] })),
      'checks:test-run': () => ok({ ok: false, refused: 'not-runnable' }),
    });
    renderView((place) => <ChecksView selected={place.guid} />, bridge, { view: 'checks', guid: 's' });
    fireEvent.click(await screen.findByRole('button', { name: 'Run now' }));
    // The words come from the refusal's kind, in the window's words module, and read as a failure.
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The test run did not happen');
    expect(alert.textContent).toContain('so it cannot be run');
    expect(alert.className).toContain('error');
  });
});
