// A run as the window explains it: verdict, the rule that decided it, phase timings and the
// certificate, and the response sample (a private check's masked, or withheld). Kept for each
// check's last run (read/last-runs.ts; the store keeps the verdict only), and returned by a "Run
// now" test run, which is never stored in the outbox nor uploaded.
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

/** A phase the run did not go through (no DNS for an address, no TLS for http). */
const noPhase = -1;

/** The phases besides the total, a key each: one ProbeTimings gains fails to compile here. */
const phaseKeys: Record<Exclude<keyof ProbeTimings, 'totalMs'>, true> = {
  dnsMs: true,
  connectMs: true,
  tlsMs: true,
  firstByteMs: true,
};
const phases = Object.keys(phaseKeys) as (keyof typeof phaseKeys)[];

/**
 * One run as kept for the window: what the explanation is made of, as plain fields that a next
 * run overwrites in place. Every check's last run lives in one of these for as long as the check
 * does, and a check at 1 s replaces it every second: a new object (and its time string and
 * timings) per run outlived the young generation and was promoted, one more object per run for
 * the old generation's collector (issue 26). In place, a run allocates nothing here; the
 * explanation object is built when the window asks.
 */
export class ExplainedRun {
  ranAtMs = 0;
  success = false;
  httpStatus = 0;
  latencyMs = 0;
  error = '';
  decidedBy: DecidingRule = 'all-rules';
  dnsMs = noPhase;
  connectMs = noPhase;
  tlsMs = noPhase;
  firstByteMs = noPhase;
  /** noPhase: the run has no timings (a check that could not start). */
  totalMs = noPhase;
  certificate: CertificateInfo | undefined = undefined;
  /** '' when nothing is shown: none came back, or it was withheld. */
  sample = '';
  sampleKind: SampleKind | undefined = undefined;
  sampleWithheld = false;
}

/**
 * A steady target answers alike run after run: what the last run kept stays when the new run
 * brings an equal copy, which then dies young instead of being promoted with the record (a
 * certificate is four objects, a sample one string; for every https check, every run).
 */
const kept = (old: string, next: string): string => (old === next ? old : next);
/** Every field of a certificate summary: one CertificateInfo gains fails to compile here. */
const certificateKeys: Record<keyof CertificateInfo, true> = {
  subject: true,
  issuer: true,
  validTo: true,
  daysLeft: true,
};
const certificateFields = Object.keys(certificateKeys) as (keyof CertificateInfo)[];
const sameCertificate = (a: CertificateInfo | undefined, b: CertificateInfo | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && certificateFields.every((field) => a[field] === b[field]));

/**
 * Keeps `outcome` in `into`, with `error` as the UI may show it and the sample masked or withheld
 * for a private check (results/privacy.ts), so nothing kept here needs masking later.
 */
export function keepRun(
  into: ExplainedRun,
  outcome: ProbeOutcome,
  ranAtMs: number,
  error: string,
  privateSecrets?: readonly string[],
): ExplainedRun {
  const shown = shownSample(outcome, privateSecrets);
  const t = outcome.timings;
  into.ranAtMs = ranAtMs;
  into.success = outcome.success;
  into.httpStatus = outcome.httpStatus;
  into.latencyMs = outcome.latencyMs;
  into.error = kept(into.error, error);
  into.decidedBy = outcome.decidedBy;
  for (const phase of phases) into[phase] = t?.[phase] ?? noPhase;
  into.totalMs = t?.totalMs ?? noPhase;
  into.certificate = sameCertificate(into.certificate, outcome.certificate) ? into.certificate : outcome.certificate;
  into.sampleWithheld = 'withheld' in shown;
  into.sample = 'withheld' in shown ? '' : kept(into.sample, shown.sample);
  into.sampleKind = outcome.responseSample === '' ? undefined : outcome.sampleKind;
  return into;
}

function timingsOf(run: ExplainedRun): ProbeTimings | undefined {
  if (run.totalMs === noPhase) return undefined;
  const timings: ProbeTimings = { totalMs: run.totalMs };
  for (const phase of phases) if (run[phase] !== noPhase) timings[phase] = run[phase];
  return timings;
}

/** The kept run as the window shows it. */
export function explanationOf(run: ExplainedRun, test: boolean): RunExplanation {
  const timings = timingsOf(run);
  return {
    ranAt: new Date(run.ranAtMs).toISOString(),
    success: run.success,
    httpStatus: run.httpStatus,
    latencyMs: run.latencyMs,
    error: run.error,
    ...(timings === undefined ? {} : { timings }),
    ...(run.certificate === undefined ? {} : { certificate: run.certificate }),
    decidedBy: run.decidedBy,
    test,
    ...(run.sampleWithheld ? { sampleWithheld: true } : run.sample === '' ? {} : { sample: run.sample }),
    ...(run.sampleKind === undefined ? {} : { sampleKind: run.sampleKind }),
  };
}

/** A run explained at once (a "Run now" test run, which is not kept). */
export const explainRun = (
  outcome: ProbeOutcome,
  ranAt: Date,
  error: string,
  test: boolean,
  privateSecrets?: readonly string[],
): RunExplanation => explanationOf(keepRun(new ExplainedRun(), outcome, ranAt.getTime(), error, privateSecrets), test);
