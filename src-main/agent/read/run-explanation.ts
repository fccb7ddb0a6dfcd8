// A run as the window explains it: verdict, the rule that decided it, phase timings and the
// certificate, and the response sample (a private check's masked, or withheld). Kept in memory for each check's last run (the store keeps the verdict only), and
// returned by a "Run now" test run, which is never stored in the outbox nor uploaded.
import type { CertificateInfo, DecidingRule, ProbeOutcome, ProbeTimings, SampleKind } from '../probes/types.ts';
import { shownSample } from '../results/privacy.ts';

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
  /** The start of what the target sent (body, banner, certificate summary); absent when nothing. */
  sample?: string;
  sampleKind?: SampleKind;
  /** A private check's sample that still held part of its definition: not shown. */
  sampleWithheld?: boolean;
}

export function explainRun(
  outcome: ProbeOutcome,
  ranAt: Date,
  error: string,
  test: boolean,
  privateSecrets?: readonly string[],
): RunExplanation {
  const shown = shownSample(outcome, privateSecrets);
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
    ...('withheld' in shown ? { sampleWithheld: true } : shown.sample === '' ? {} : { sample: shown.sample }),
    ...(outcome.sampleKind === undefined || outcome.responseSample === '' ? {} : { sampleKind: outcome.sampleKind }),
  };
}
