// @vitest-environment happy-dom
// Issue 25 point 3: every button that asks the agent to do something reports its real outcome.
// A failed Sync now once showed as a green ✓ holding "Could not reach GET …: connection refused";
// each command here gets a failed outcome from the bridge and must show it as a failure (error
// style, words from the failure's kind), never as a success and never with machine text.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentSnapshot, RunResult } from '../../src-main/ipc/contract.ts';
import { App } from '../../src-renderer/App.tsx';
import { AgentProvider } from '../../src-renderer/state/agent-context.tsx';
import { ChecksView } from '../../src-renderer/views/ChecksView.tsx';
import { UnsentView } from '../../src-renderer/views/UnsentView.tsx';
import { runDoneWords } from '../../src-renderer/words/command-words.ts';
import { createFakeBridge, ok, type Answers, type FakeBridge } from './fake-bridge.ts';
import { checkOf, snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-21T10:00:00.000Z'), toFake: ['Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

/** The server refusing connections: the outcome the agent sends for a failed sync or upload. */
const refused: RunResult = { ok: false, failure: { kind: 'network', cause: 'refused' } };
const refusedWords = /Nothing answers at that address/;
const machineText = /GET|POST|https?:\/\/|\/api\/|ECONN|Could not reach/;

/** The failure is an alert in error style; nothing on the page is a success notice. */
async function expectFailure(title: string): Promise<HTMLElement> {
  const alert = await waitFor(() => {
    const found = screen.getAllByRole('alert').find((a) => a.textContent.includes(title));
    if (found === undefined) throw new Error(`no alert titled ${title}`);
    return found;
  });
  expect(alert.className).toContain('notice-error');
  expect(alert.textContent).toMatch(refusedWords);
  expect(alert.textContent).not.toMatch(machineText);
  expect(document.querySelector('.notice-success')).toBeNull();
  expect(document.body.textContent).not.toContain('✓');
  return alert;
}

const renderApp = (bridge: FakeBridge) =>
  render(
    <AgentProvider bridge={bridge}>
      <App />
    </AgentProvider>,
  );

const unreachable = (): AgentSnapshot =>
  snapshotOf({
    connection: { state: 'unreachable', since: '2026-11-21T09:58:00.000Z', lastFailure: refused.failure },
    outbox: {
      unsent: 40,
      bytes: 12_000,
      dropped: 0,
      rejectedCount: 1,
      rejected: [
        {
          check_guid: 'a',
          ran_at: '2026-11-21T09:40:00.000Z',
          reason: 'latency out of range',
          rejected_at: '2026-11-21T09:41:00.000Z',
        },
      ],
      oldestRanAt: '2026-11-21T09:50:00.000Z',
    },
    checks: [checkOf({ guid: 'a', name: 'Website', unsent: 40 })],
  });

const failing = (extra: Answers = {}): FakeBridge =>
  createFakeBridge({
    'agent:snapshot': () => ok(unreachable()),
    'agent:sync-now': () => ok(refused),
    'agent:upload-now': () => ok(refused),
    'agent:resend-set-aside': () => ok(refused),
    ...extra,
  });

describe('a command that failed is shown as a failure', () => {
  it('Sync now in the Overview (the reported bug): an error, not a green ✓', async () => {
    const bridge = failing();
    renderApp(bridge);
    const main = await screen.findByRole('main');
    fireEvent.click(within(main).getByRole('button', { name: 'Sync now' }));
    await expectFailure('Sync failed');
    expect(bridge.callsTo('agent:sync-now')).toHaveLength(1);
  });

  it('Try again now on the server problem', async () => {
    const bridge = failing();
    renderApp(bridge);
    const problems = await screen.findByRole('region', { name: 'Problems of the agent' });
    fireEvent.click(within(problems).getByRole('button', { name: 'Try again now' }));
    await expectFailure('Sync failed');
  });

  it('Send now on a late backlog', async () => {
    // Online and connected, but the backlog is late: the Overview offers to send it now.
    const base = unreachable();
    const late = snapshotOf({
      ...base,
      connection: snapshotOf().connection,
      outbox: { ...base.outbox, rejectedCount: 0, rejected: [] },
    });
    renderApp(failing({ 'agent:snapshot': () => ok(late) }));
    const problems = await screen.findByRole('region', { name: 'Problems of the agent' });
    fireEvent.click(within(problems).getByRole('button', { name: 'Send now' }));
    await expectFailure('Sending failed');
  });

  it('Sync now of a monitor without checks', async () => {
    renderView((place) => <ChecksView selected={place.guid} />, failing({ 'agent:snapshot': () => ok(snapshotOf()) }), {
      view: 'checks',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Sync now' }));
    await expectFailure('Sync failed');
  });

  it('Upload now and Send again in Unsent results', async () => {
    renderView(<UnsentView />, failing());
    fireEvent.click(await screen.findByRole('button', { name: 'Upload now' }));
    const upload = await expectFailure('Upload failed');
    expect(upload.textContent).toContain('The agent keeps the results and sends them again by itself');
    fireEvent.click(screen.getByRole('button', { name: 'Send again' }));
    await expectFailure('Sending again failed');
  });

  it('a successful Sync now is still a success, in words from its figures', async () => {
    renderApp(failing({ 'agent:sync-now': () => ok({ ok: true, done: { kind: 'sync', received: 0, stopped: 0 } }) }));
    const main = await screen.findByRole('main');
    fireEvent.click(within(main).getByRole('button', { name: 'Sync now' }));
    expect((await screen.findByText('Checks are up to date.')).closest('.notice-success')).not.toBeNull();
    expect(screen.queryByText('Sync failed')).toBeNull();
  });
});

describe('what a command did, in words from its figures', () => {
  it.each([
    { done: { kind: 'sync', received: 0, stopped: 0 }, words: 'Checks are up to date.' },
    { done: { kind: 'sync', received: 3, stopped: 1 }, words: '3 check changes applied, 1 check stopped.' },
    { done: { kind: 'upload', delivered: 0, rejected: 0 }, words: 'Nothing was waiting to be sent.' },
    {
      done: { kind: 'upload', delivered: 1, rejected: 2 },
      words: '1 result sent, 2 refused by the server (set aside below).',
    },
    { done: { kind: 'resend', moved: 0, delivered: 0, rejected: 0 }, words: 'No refused results were waiting.' },
    {
      done: { kind: 'resend', moved: 1, delivered: 43, rejected: 0 },
      words: '1 refused result sent again: 43 results sent.',
    },
  ] as const)('$words', ({ done, words }) => {
    expect(runDoneWords(done)).toBe(words);
  });
});
