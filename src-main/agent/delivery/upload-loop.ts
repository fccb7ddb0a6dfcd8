// The upload loop: drains the outbox to the server, with progress in the live state, and is
// woken early when a full wire batch waits.
import { addedReports, drainOutbox, emptyReport, type UploadOutcome } from './uploader.ts';
import type { CallFailure } from '../identity/identity.ts';
import type { Logger } from '../base/log.ts';
import type { ServiceCalls } from './service-calls.ts';
import type { LiveState } from '../live/state.ts';
import type { Outbox } from '../store/outbox.ts';
import { wireLimits } from '../wire/limits.ts';

export interface UploadLoopDeps {
  outbox: Outbox;
  calls: ServiceCalls;
  live: LiveState;
  log: Logger;
  now: () => Date;
}

export interface UploadLoop {
  upload(signal?: AbortSignal): Promise<UploadOutcome | CallFailure>;
  /** Whether a full wire batch is waiting, so an upload should not wait for the next interval. */
  batchWaiting(): boolean;
  /** Puts the results set aside as refused back in the outbox and uploads now (a user asked). */
  resendSetAside(): Promise<ResendOutcome>;
}

export interface ResendOutcome {
  /** Results moved back from the set-aside list. */
  moved: number;
  upload: UploadOutcome | CallFailure;
}

export function createUploadLoop(deps: UploadLoopDeps): UploadLoop {
  const { outbox, live } = deps;

  async function drain(signal: AbortSignal | undefined): Promise<UploadOutcome | CallFailure> {
    if (outbox.count() === 0) return { ok: true, report: emptyReport() };
    live.update((s) => ({ ...s, uploading: { delivered: 0 } }));
    const outcome = await deps.calls.call('upload', signal, (client, apiKey, s) =>
      drainOutbox({
        outbox,
        client,
        apiKey,
        now: deps.now,
        ...(s === undefined ? {} : { signal: s }),
        onProgress: ({ delivered }) => live.update((st) => ({ ...st, uploading: { delivered } })),
      }),
    );
    live.update(({ uploading: _done, ...rest }) => rest);
    if ('report' in outcome && outcome.report.rejected > 0) {
      deps.log.warn(
        { rejected: outcome.report.rejected },
        'the server refused some results; they are set aside in the rejected list',
      );
    }
    return outcome;
  }

  /**
   * The drain under way. One at a time: Upload now during the loop's round made two drains that
   * sent the same rows, and the first to end took the progress off the window.
   */
  let running: Promise<UploadOutcome | CallFailure> | undefined;

  const loop: UploadLoop = {
    async upload(signal) {
      const joined = running;
      if (joined === undefined) {
        running = drain(signal);
        try {
          return await running;
        } finally {
          running = undefined;
        }
      }
      // The drain under way sends everything waiting now: its outcome is this caller's too, and
      // what came in meanwhile (results sent again, new runs) goes right after it.
      const first = await (signal === undefined ? joined : until(joined, signal));
      if (!first.ok || signal?.aborted === true) return first;
      const rest = await loop.upload(signal);
      return rest.ok ? { ok: true, report: addedReports(first.report, rest.report) } : rest;
    },
    batchWaiting: () => outbox.count() >= wireLimits.resultsPerBatch,
    async resendSetAside() {
      const moved = outbox.resendRejected();
      if (moved > 0) deps.log.info({ moved }, 'results set aside as refused are sent again');
      return { moved, upload: await loop.upload() };
    },
  };
  return loop;
}

/** The joined drain's outcome, or cancelled once the caller's own signal (the stop's bound) ends first. */
function until(
  joined: Promise<UploadOutcome | CallFailure>,
  signal: AbortSignal,
): Promise<UploadOutcome | CallFailure> {
  const cancelled: CallFailure = { ok: false, error: { kind: 'cancelled', message: 'upload cancelled' } };
  if (signal.aborted) return Promise.resolve(cancelled);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(cancelled);
    signal.addEventListener('abort', onAbort, { once: true });
    void joined.then((outcome) => {
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    });
  });
}
