// The pure rules that turn what a probe observed into pass/fail with a reason. Every probe
// uses the same rules, so a check means the same thing whichever scheme it targets.
import type { CertificateInfo, DecidingRule, ProbeOutcome } from './types.ts';

export interface Verdict {
  pass: boolean;
  /** Empty when passed; otherwise says what was seen and what was expected. */
  reason: string;
  /** The rule that gave this verdict ('all-rules' when passed). */
  rule: DecidingRule;
}

export const passed: Verdict = { pass: true, reason: '', rule: 'all-rules' };
const failed = (reason: string, rule: DecidingRule): Verdict => ({ pass: false, reason, rule });

const statusOps = ['eq', 'lt', 'gt'] as const;
const matchModes = ['contains', 'not_contains'] as const;
export type MatchMode = (typeof matchModes)[number];

/** What the server sends as "no value": absent, null (read as absent) or an empty string. */
const isUnset = (value: string | undefined): value is undefined | '' => value === undefined || value === '';

/**
 * Why the status rule of a check cannot be applied, or '' when it can. Unknown operators fail
 * closed (design.md): a comparison we do not understand must never pass silently.
 */
export function statusRuleProblem(op: string | undefined, value: number | undefined): string {
  if (isUnset(op)) return '';
  if (!(statusOps as readonly string[]).includes(op)) {
    return `unknown status_code_op ${JSON.stringify(op)} (known: ${statusOps.join(', ')})`;
  }
  return value === undefined ? `status_code_op ${JSON.stringify(op)} needs a status_code_value` : '';
}

/** Absent op: the built-in rule "status >= 400 fails"; else a comparison with `value`. */
export function statusVerdict(status: number, op: string | undefined, value: number | undefined): Verdict {
  const problem = statusRuleProblem(op, value);
  if (problem !== '') return failed(problem, 'definition');
  if (isUnset(op) || value === undefined) {
    return status < 400 ? passed : failed(`status ${status}, expected less than 400`, 'status');
  }
  if (op === 'eq') return status === value ? passed : failed(`status ${status}, expected ${value}`, 'status');
  if (op === 'lt') return status < value ? passed : failed(`status ${status}, expected less than ${value}`, 'status');
  return status > value ? passed : failed(`status ${status}, expected greater than ${value}`, 'status');
}

/** The match mode of a check; undefined when the value is unknown (which fails the check). */
export function matchModeOf(mode: string | undefined): MatchMode | undefined {
  if (isUnset(mode)) return 'contains';
  return (matchModes as readonly string[]).includes(mode) ? (mode as MatchMode) : undefined;
}

export function matchRuleProblem(mode: string | undefined): string {
  return matchModeOf(mode) === undefined
    ? `unknown match_mode ${JSON.stringify(mode)} (known: ${matchModes.join(', ')})`
    : '';
}

/**
 * Whether the match verdict is already decided, so reading can stop: an empty match string
 * asserts nothing, an unknown mode fails anyway, and a found needle decides either mode.
 */
export function matchSettled(matchString: string, mode: string | undefined, found: boolean): boolean {
  return matchString === '' || matchModeOf(mode) === undefined || found;
}

/**
 * `subject` names what was searched ("body", "banner", "certificate summary"); `found` says
 * whether it contains `matchString`. An empty match string asserts nothing.
 */
export function matchVerdict(subject: string, matchString: string, mode: string | undefined, found: boolean): Verdict {
  if (matchString === '') return passed;
  const known = matchModeOf(mode);
  if (known === undefined) return failed(matchRuleProblem(mode), 'definition');
  const quoted = JSON.stringify(matchString);
  if (known === 'contains') return found ? passed : failed(`${subject} does not contain ${quoted}`, 'match');
  return found ? failed(`${subject} contains ${quoted}`, 'match') : passed;
}

/** 0, negative or absent limit: no constraint. Equal to the limit still passes. */
export function responseTimeVerdict(latencyMs: number, maxMs: number | undefined): Verdict {
  if (maxMs === undefined || maxMs <= 0 || latencyMs <= maxMs) return passed;
  return failed(`response took ${latencyMs} ms, limit ${maxMs} ms`, 'response-time');
}

/**
 * Fails when the certificate has `warnDays` or fewer whole days left. 0, negative or absent
 * turns the rule off, as 0 means "no constraint" for every other optional number of a check.
 */
export function certExpiryVerdict(cert: CertificateInfo | undefined, warnDays: number | undefined): Verdict {
  if (cert === undefined || warnDays === undefined || warnDays <= 0 || cert.daysLeft > warnDays) return passed;
  const day = cert.validTo.slice(0, 10);
  const warning = `warning at ${warnDays}`;
  if (cert.daysLeft < 0) return failed(`TLS certificate expired on ${day}, ${warning}`, 'certificate');
  if (cert.daysLeft === 0) return failed(`TLS certificate expires today (${day}), ${warning}`, 'certificate');
  const days = cert.daysLeft === 1 ? '1 day' : `${cert.daysLeft} days`;
  return failed(`TLS certificate expires in ${days} (${day}), ${warning}`, 'certificate');
}

/** The first failing verdict, in the order given, or `passed`. */
export function firstFailure(...verdicts: Verdict[]): Verdict {
  return verdicts.find((v) => !v.pass) ?? passed;
}

export const invertedSuccessError = 'inverted: target answered successfully';

/**
 * invert_result, applied last. A flipped failure becomes a success with an empty error (the wire
 * says error is empty on success); a flipped success says why it failed. A broken definition or
 * a cancelled run is not a statement about the target, so it is never flipped.
 */
export function invertOutcome(outcome: ProbeOutcome): ProbeOutcome {
  if (outcome.invalidDefinition === true || outcome.cancelled === true) return outcome;
  return outcome.success
    ? { ...outcome, success: false, error: invertedSuccessError, decidedBy: 'inverted' }
    : { ...outcome, success: true, error: '', decidedBy: 'inverted' };
}
