// Turns a probe outcome into the wire Result and the history entry the UI keeps.
import { capDetail } from '../probes/detail.ts';
import type { ProbeOutcome } from '../probes/types.ts';
import type { HistoryEntry } from '../store/history.ts';
import type { WireResult } from '../wire/schemas.ts';
import { sentDetail } from './privacy.ts';

export interface ResultInput {
  guid: string;
  monitorId: string;
  ranAt: Date;
  outcome: ProbeOutcome;
  /** result_detail_max_chars of the check: caps error and response_sample, 0 = send nothing. */
  maxChars: number;
  /** For a private-definition check: the local definition's values, none of which may be sent. */
  privateSecrets?: readonly string[];
}

/** The error kept in the local history: enough for the UI, whatever the server's cap. */
const historyErrorChars = 500;

export function buildResult(input: ResultInput): WireResult {
  const { outcome, maxChars } = input;
  const detail = sentDetail(outcome, input.privateSecrets);
  const error = capDetail(detail.error, maxChars);
  const sample = capDetail(detail.sample, maxChars);
  return {
    check_guid: input.guid,
    monitor_id: input.monitorId,
    ran_at: input.ranAt.toISOString(),
    success: outcome.success,
    http_status: outcome.httpStatus,
    latency_ms: outcome.latencyMs,
    ...(error === '' ? {} : { error }),
    ...(sample === '' ? {} : { response_sample: sample }),
  };
}

/**
 * The history keeps the local, unredacted error (it never leaves this machine and the user
 * needs it to fix a private check), cut to a size the UI can show.
 */
export function historyEntry(result: WireResult, outcome: ProbeOutcome, skipped: boolean): HistoryEntry {
  return {
    check_guid: result.check_guid,
    ran_at: result.ran_at,
    success: result.success,
    skipped,
    http_status: result.http_status,
    latency_ms: result.latency_ms,
    error: capDetail(outcome.error, historyErrorChars),
  };
}
