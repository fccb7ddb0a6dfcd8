// Drains the outbox to POST /api/results in commit order, under the wire limits (500 results,
// 1 MiB of JSON), deleting rows only after a 200. 413 splits a batch; 400 bisects it. A result is
// set aside only when the rest of its batch was accepted (a real poison row). When every part
// tried is refused and none accepted, the server is at fault (a broken release, a middlebox): the
// round stops with a server failure, so the loop backs off, and every result is kept (issue 24 §1).
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

/** A report of nothing sent yet. */
export const emptyReport = (): UploadReport => ({ delivered: 0, accepted: 0, rejected: 0, calls: 0 });

/** Two reports of uploads made one after the other, as one. */
export const addedReports = (a: UploadReport, b: UploadReport): UploadReport => ({
  delivered: a.delivered + b.delivered,
  accepted: a.accepted + b.accepted,
  rejected: a.rejected + b.rejected,
  calls: a.calls + b.calls,
});

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
  const report = emptyReport();
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
    // Many refusals in one round: the rest waits for the next round rather than a refusal storm.
    if (report.rejected >= maxSetAsidePerRound) return { ok: true, report };
  }
}

/** At most this many results are set aside in one round: a flood of refusals waits for the next. */
export const maxSetAsidePerRound = 50;

/**
 * Refused calls, none accepted, after which a batch's refusals are the server's doing: the depth
 * of a bisect down to one row, and a few more so that two or three poison rows side by side are
 * still told apart from a server that refuses everything.
 */
const refusalsBeforeBlame = (rows: number): number => Math.ceil(Math.log2(Math.max(rows, 1))) + 4;

/** One batch's bisect: what it has learnt so far. */
interface Bisect {
  report: UploadReport;
  /** Some part of the batch was accepted: the server takes results, so a refused row is poison. */
  accepted: boolean;
  /** Single rows refused before anything was accepted: set aside once something is. */
  suspects: { row: OutboxRow; reason: string }[];
  refusals: number;
  budget: number;
}

const serverRefusesAll = (status: number, reason: string | undefined): ApiError => ({
  kind: 'server',
  status,
  ...(reason === undefined ? {} : { reason }),
  message: `the server refuses every result (${status}${reason === undefined ? '' : `: ${reason}`}); they are kept and sent again later`,
});

async function deliver(
  rows: readonly OutboxRow[],
  deps: UploadDeps,
  report: UploadReport,
): Promise<ApiError | undefined> {
  const bisect: Bisect = {
    report,
    accepted: false,
    suspects: [],
    refusals: 0,
    budget: refusalsBeforeBlame(rows.length),
  };
  const error = await send(rows, deps, bisect);
  if (error !== undefined) return error;
  const [first] = bisect.suspects;
  // Nothing of the batch was accepted: nothing proves these rows are at fault. Keep them.
  if (first !== undefined) return serverRefusesAll(400, first.reason);
  return undefined;
}

function setAside(deps: UploadDeps, bisect: Bisect, row: OutboxRow, reason: string): void {
  deps.outbox.reject(row, reason, deps.now());
  bisect.report.rejected++;
}

/** Sends rows; on 413 or 400 splits them, in order, until each part is delivered or judged. */
async function send(rows: readonly OutboxRow[], deps: UploadDeps, bisect: Bisect): Promise<ApiError | undefined> {
  const { report } = bisect;
  if (report.rejected >= maxSetAsidePerRound) return undefined;
  report.calls++;
  const answer = await deps.client.results(deps.apiKey, batchBody(rows), deps.signal);
  if (answer.ok) {
    deps.outbox.remove(rows.map((r) => r.id));
    report.delivered += rows.length;
    report.accepted += answer.value.accepted;
    bisect.accepted = true;
    for (const { row, reason } of bisect.suspects.splice(0)) setAside(deps, bisect, row, reason);
    return undefined;
  }
  const { status, reason: said } = answer.error;
  if (status !== 400 && status !== 413) return answer.error;
  const reason = said ?? (status === 413 ? 'result larger than the server accepts' : `refused with ${status}`);
  if (!bisect.accepted && ++bisect.refusals >= bisect.budget) return serverRefusesAll(status, said);
  const [only] = rows;
  if (rows.length === 1 && only !== undefined) {
    // The server accepts others: this one it will refuse for ever. Keep it aside, visible.
    if (bisect.accepted) setAside(deps, bisect, only, reason);
    else bisect.suspects.push({ row: only, reason });
    return undefined;
  }
  const half = Math.ceil(rows.length / 2);
  return (await send(rows.slice(0, half), deps, bisect)) ?? (await send(rows.slice(half), deps, bisect));
}
