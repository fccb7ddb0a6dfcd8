// Drains the outbox to POST /api/results in commit order, under the wire limits (500 results,
// 1 MiB of JSON), deleting rows only after a 200. 413 splits a batch; 400 bisects it until the
// one result the server refuses is isolated and set aside with the server's reason.
import type { ApiError } from '../wire/api-error.ts';
import type { ApiClient } from '../wire/api-client.ts';
import { wireLimits } from '../wire/limits.ts';
import type { Outbox, OutboxRow } from '../store/outbox.ts';

/** `{"results":[` + `]}`: what a batch body adds around the joined payloads. */
const envelopeBytes = '{"results":[]}'.length;

export const batchBody = (rows: readonly OutboxRow[]): string =>
  `{"results":[${rows.map((r) => r.payload).join(',')}]}`;

/** Payload bytes that fit one call: the body limit less the envelope and the commas. */
export const batchPayloadBudget = (maxBodyBytes: number, maxResults: number): number =>
  maxBodyBytes - envelopeBytes - (maxResults - 1);

export interface UploadReport {
  /** Rows the server answered 200 for (and so removed). */
  delivered: number;
  /** The server's `accepted` total; lower than delivered means results for unassigned checks. */
  accepted: number;
  /** Rows set aside as rejected. */
  rejected: number;
  /** Calls made. */
  calls: number;
}

export type UploadOutcome = { ok: true; report: UploadReport } | { ok: false; error: ApiError; report: UploadReport };

export interface UploadDeps {
  outbox: Outbox;
  client: ApiClient;
  apiKey: string;
  now: () => Date;
  signal?: AbortSignal;
  /** Called after every delivered batch, for progress in the UI. */
  onProgress?: (report: UploadReport) => void;
  maxResults?: number;
  maxBodyBytes?: number;
}

/** Uploads until the outbox is empty or a call fails in a way that needs waiting. */
export async function drainOutbox(deps: UploadDeps): Promise<UploadOutcome> {
  const maxResults = deps.maxResults ?? wireLimits.resultsPerBatch;
  const budget = batchPayloadBudget(deps.maxBodyBytes ?? wireLimits.resultsBodyBytes, maxResults);
  const report: UploadReport = { delivered: 0, accepted: 0, rejected: 0, calls: 0 };
  for (;;) {
    if (deps.signal?.aborted === true) return { ok: true, report };
    const rows = deps.outbox.peek(maxResults, budget);
    if (rows.length === 0) return { ok: true, report };
    let error: ApiError | undefined;
    try {
      error = await deliver(rows, deps, report);
    } catch (storeError) {
      // The server has these results but the store could not remove them (a full disk): stop
      // here. Sending the same rows again would only make a resend storm; the next round retries.
      const detail = storeError instanceof Error ? storeError.message : String(storeError);
      return {
        ok: false,
        error: {
          kind: 'local-store',
          message: `delivered results could not be removed from the store (${detail}); uploading waits`,
        },
        report,
      };
    }
    if (error !== undefined) return { ok: false, error, report };
    deps.onProgress?.({ ...report });
  }
}

/** Sends rows; on 413 or 400 splits them, in order, until each part is delivered or set aside. */
async function deliver(
  rows: readonly OutboxRow[],
  deps: UploadDeps,
  report: UploadReport,
): Promise<ApiError | undefined> {
  report.calls++;
  const answer = await deps.client.results(deps.apiKey, batchBody(rows), deps.signal);
  if (answer.ok) {
    deps.outbox.remove(rows.map((r) => r.id));
    report.delivered += rows.length;
    report.accepted += answer.value.accepted;
    return undefined;
  }
  const { status } = answer.error;
  if (status !== 400 && status !== 413) return answer.error;
  const [only] = rows;
  if (rows.length === 1 && only !== undefined) {
    // A single result the server refuses will be refused forever: keep it aside, visible.
    const reason =
      answer.error.reason ?? (status === 413 ? 'result larger than the server accepts' : `refused with ${status}`);
    deps.outbox.reject(only, reason, deps.now());
    report.rejected++;
    return undefined;
  }
  const half = Math.ceil(rows.length / 2);
  return (await deliver(rows.slice(0, half), deps, report)) ?? (await deliver(rows.slice(half), deps, report));
}
