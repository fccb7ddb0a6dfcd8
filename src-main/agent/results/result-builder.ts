// Turns a probe outcome into the wire Result and the history entry the UI keeps.
import { capDetail } from '../probes/detail.ts';
import type { ProbeOutcome } from '../probes/types.ts';
import type { HistoryEntry } from '../store/history.ts';
import type { WireResult } from '../wire/schemas.ts';
import { redactPrivate } from './private-redaction.ts';

export interface ResultInput {
  guid: string;
  monitorId: string;
  ranAt: Date;
  outcome: ProbeOutcome;
  /** result_detail_max_chars of the check: caps error and response_sample, 0 = send nothing. */
  maxChars: number;
  /** For a private-definition check: the local definition's secrets to mask. */
  privateSecrets?: readonly string[];
  /** tls and tcp samples describe the target itself; for a private check they are withheld. */
  sampleIsTargetInfo: boolean;
}

export function buildResult(input: ResultInput): WireResult {
  const { outcome, maxChars } = input;
  const secrets = input.privateSecrets;
  const clean = (text: string): string => (secrets === undefined ? text : redactPrivate(text, secrets));
  const error = capDetail(clean(outcome.error), maxChars);
  const sample = secrets !== undefined && input.sampleIsTargetInfo ? '' : capDetail(clean(outcome.responseSample), maxChars);
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
    error: capDetail(outcome.error, 500),
  };
}
