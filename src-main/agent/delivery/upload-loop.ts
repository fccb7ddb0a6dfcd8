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
}

export function createUploadLoop(deps: UploadLoopDeps): UploadLoop {
  const { outbox, live } = deps;
  return {
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
  };
}
