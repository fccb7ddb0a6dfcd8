// A run as the window explains it: verdict, the rule that decided it, phase timings and the
// certificate. Kept in memory for each check's last run (the store keeps the verdict only), and
// returned by a "Run now" test run, which is never stored in the outbox nor uploaded.
import type { CertificateInfo, DecidingRule, ProbeOutcome, ProbeTimings } from '../probes/types.ts';

export interface RunExplanation {
  ranAt: string;
  success: boolean;
  httpStatus: number;
  latencyMs: number;
  /** Redacted like everything the UI shows. */
  error: string;
  timings?: ProbeTimings;
  certificate?: CertificateInfo;
  /** The rule that decided the verdict (status, match, response-time, certificate, inverted…). */
  decidedBy: DecidingRule;
  /** A "Run now" from the window: kept locally, not uploaded. */
  test: boolean;
}

export function explainRun(outcome: ProbeOutcome, ranAt: Date, error: string, test: boolean): RunExplanation {
  return {
    ranAt: ranAt.toISOString(),
    success: outcome.success,
    httpStatus: outcome.httpStatus,
    latencyMs: outcome.latencyMs,
    error,
    ...(outcome.timings === undefined ? {} : { timings: outcome.timings }),
    ...(outcome.certificate === undefined ? {} : { certificate: outcome.certificate }),
    decidedBy: outcome.decidedBy,
    test,
  };
}
