// The upload loop: drains the outbox to the server, with progress in the live state, and is
// woken early when a full wire batch waits.
import { drainOutbox, type UploadOutcome } from './uploader.ts';
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
  const loop: UploadLoop = {
    async upload(signal) {
      const total = outbox.count();
      if (total === 0) return { ok: true, report: { delivered: 0, accepted: 0, rejected: 0, calls: 0 } };
      live.update((s) => ({ ...s, uploading: { delivered: 0, total } }));
      const outcome = await deps.calls.call('upload', signal, (client, apiKey, s) =>
        drainOutbox({
          outbox,
          client,
          apiKey,
          now: deps.now,
          ...(s === undefined ? {} : { signal: s }),
          onProgress: (report) => live.update((st) => ({ ...st, uploading: { delivered: report.delivered, total } })),
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
