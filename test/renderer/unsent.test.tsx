// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult, RunResult } from '../../src-main/ipc/contract.ts';
import { UnsentView } from '../../src-renderer/views/UnsentView.tsx';
import { createFakeBridge, deferred, fail, ok } from './fake-bridge.ts';
import { checkOf, snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';
import { resultsKeptSentences } from './said-once.ts';

afterEach(cleanup);

const backlog = snapshotOf({
  checks: [checkOf({ guid: 'a', name: 'Website', unsent: 40 }), checkOf({ guid: 'b', name: 'Shop', unsent: 2 })],
  outbox: {
    unsent: 42,
    bytes: 12_000,
    oldestRanAt: '2026-11-21T09:50:00.000Z',
    dropped: 7,
    rejectedCount: 1,
    rejected: [
      {
        check_guid: 'b',
        ran_at: '2026-11-21T09:40:00.000Z',
        reason: 'results[0].latency_ms: must be >= 0',
        rejected_at: '2026-11-21T09:41:00.000Z',
      },
    ],
  },
  upload: {
    failures: 3,
    lastError: 'POST https://uptime.example/api/results answered 503',
    lastFailure: { kind: 'server', status: 503 },
    lastOkAt: '2026-11-21T09:49:00.000Z',
  },
});

describe('Unsent results', () => {
  it('when nothing waits: says so, and Upload now has nothing to do', async () => {
    renderView(<UnsentView />, createFakeBridge());
    expect(await screen.findByText('Nothing is waiting')).toBeTruthy();
    expect(screen.getByText(/None\. A result the server refuses/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Upload now' }).disabled).toBe(true);
  });

  it('shows the backlog per check, the failing uploads, refused and dropped results', async () => {
    renderView(<UnsentView />, createFakeBridge({ 'agent:snapshot': () => ok(backlog) }));
    expect((await screen.findByTestId('unsent-count')).textContent).toBe('42');
    expect(screen.getByRole('row', { name: /Website/ }).textContent).toContain('40');
    expect(screen.getByText('Sending has failed 3 times in a row')).toBeTruthy();
    expect(screen.getByText('7 results were dropped')).toBeTruthy();
    expect(screen.getByRole('row', { name: /latency_ms: must be >= 0/ }).textContent).toContain('Shop');
  });

  it('shows the progress of a drain, and the outcome of Upload now', async () => {
    const upload = deferred<IpcResult<RunResult>>();
    const bridge = createFakeBridge({ 'agent:snapshot': () => ok(backlog), 'agent:upload-now': () => upload.promise });
    renderView(<UnsentView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Upload now' }));
    expect(screen.getByRole('button', { name: 'Uploading…' })).toBeTruthy();
    bridge.emit('agent:state-changed', {
      ...backlog,
      takenAt: '2026-11-21T10:00:01.000Z',
      outbox: { ...backlog.outbox, unsent: 22 },
      upload: { ...backlog.upload, progress: { delivered: 20 } },
    });
    const bar = await screen.findByRole('progressbar');
    expect(bar.getAttribute('value')).toBe('20');
    expect(screen.getByText('Sending results: 20 of 42')).toBeTruthy();
    upload.resolve(ok({ ok: true, done: { kind: 'upload', delivered: 42, rejected: 0 } }));
    expect(await screen.findByText('42 results sent.')).toBeTruthy();
  });

  it('the progress reads what was sent of that plus what waits: the count beside it, from the same moment', async () => {
    // Results keep coming in while a drain runs, and the drain sends them too: a total fixed when
    // it started read "Sending results: 0 of 10" beside "11 waiting to be sent".
    renderView(
      <UnsentView />,
      createFakeBridge({
        'agent:snapshot': () =>
          ok({
            ...backlog,
            outbox: { ...backlog.outbox, unsent: 11 },
            upload: { ...backlog.upload, progress: { delivered: 0 } },
          }),
      }),
    );
    expect(await screen.findByText('Sending results: 0 of 11')).toBeTruthy();
    expect(screen.getByTestId('unsent-count').textContent).toBe('11');
    expect(screen.getByRole('progressbar').getAttribute('max')).toBe('11');
  });

  it('says when Upload now failed, and that nothing is lost', async () => {
    renderView(
      <UnsentView />,
      createFakeBridge({
        'agent:snapshot': () => ok(backlog),
        'agent:upload-now': () => ok({ ok: false, failure: { kind: 'server', status: 503 } }),
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Upload now' }));
    const alert = (await screen.findByText('Upload failed')).closest('[role="alert"]');
    expect(alert?.textContent).toContain('nothing is lost');
  });

  it('says once that the results are kept, while sending keeps failing and when Upload now fails too', async () => {
    renderView(
      <UnsentView />,
      createFakeBridge({
        'agent:snapshot': () => ok(backlog),
        'agent:upload-now': () => ok({ ok: false, failure: { kind: 'server', status: 503 } }),
      }),
    );
    await screen.findByText('Sending has failed 3 times in a row');
    const view = () => document.body.textContent;
    expect(resultsKeptSentences(view())).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Upload now' }));
    await screen.findByText('Upload failed');
    // The failure's words, the failing notice and the alert each said it: four times on one screen.
    expect(resultsKeptSentences(view())).toHaveLength(1);
    expect(view()).toContain('The server had a problem of its own (status 503)');
  });

  it('a failure with a cause says what to check, and that the results are kept', async () => {
    const refused = { kind: 'network', cause: 'refused' } as const;
    renderView(
      <UnsentView />,
      createFakeBridge({
        'agent:snapshot': () => ok({ ...backlog, upload: { ...backlog.upload, lastFailure: refused } }),
      }),
    );
    const notice = (await screen.findByText('Sending has failed 3 times in a row')).closest('[role]');
    expect(notice?.textContent).toContain('Is the port right, and is the server running?');
    expect(resultsKeptSentences(notice?.textContent ?? '')).toHaveLength(1);
  });

  it('says when the command itself could not run', async () => {
    renderView(
      <UnsentView />,
      createFakeBridge({
        'agent:snapshot': () => ok(backlog),
        'agent:upload-now': () => fail('no-answer'),
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Upload now' }));
    expect((await screen.findByText(/The agent does not answer/)).closest('[role="alert"]')?.textContent).toContain(
      'Upload failed',
    );
  });

  it('sends the refused results again when asked, and says what happened', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(backlog),
      'agent:resend-set-aside': () => ok({ ok: true, done: { kind: 'resend', moved: 1, delivered: 43, rejected: 0 } }),
    });
    renderView(<UnsentView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('1 refused result sent again: 43 results sent.')).toBeTruthy();
    expect(bridge.callsTo('agent:resend-set-aside')).toHaveLength(1);
  });
});
