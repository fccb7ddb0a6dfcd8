// A person-readable account of one run (issue 13 §6): the verdict, the rule that decided it,
// the phase timings and the certificate. Pure, so the window's "Run now" and the headless
// `test-check` print the same thing.
import type { CheckDefinition } from '../wire/schemas.ts';
import { redactUrl } from './redact.ts';
import type { DecidingRule, ProbeOutcome } from './types.ts';

const ruleNames: Record<DecidingRule, string> = {
  'all-rules': 'every rule passed',
  status: 'the status rule',
  match: 'the match rule',
  'response-time': 'the response time limit',
  certificate: 'the certificate',
  inverted: 'the inverted result',
  connection: 'the connection',
  timeout: 'the timeout',
  redirect: 'the redirects',
  body: 'reading the body',
  'egress-policy': 'the egress policy',
  definition: 'the check definition',
  cancelled: 'cancellation',
};

/** What each rule of the definition asks for, for the pass line. */
function expectations(def: CheckDefinition): string[] {
  const out: string[] = [];
  if (/^https?:/i.test(def.url)) {
    const op = def.status_code_op;
    const value = def.status_code_value;
    if (op === 'eq' && value !== undefined) out.push(`status ${value}`);
    else if (op === 'lt' && value !== undefined) out.push(`status below ${value}`);
    else if (op === 'gt' && value !== undefined) out.push(`status above ${value}`);
    else out.push('status below 400');
  }
  if (def.match_string !== '') {
    out.push(
      `${def.match_mode === 'not_contains' ? 'does not contain' : 'contains'} ${JSON.stringify(def.match_string)}`,
    );
  }
  if (def.max_response_time_ms !== undefined && def.max_response_time_ms > 0)
    out.push(`response within ${def.max_response_time_ms} ms`);
  if (def.cert_expiry_warn_days !== undefined && def.cert_expiry_warn_days > 0) {
    out.push(`certificate valid for more than ${def.cert_expiry_warn_days} days`);
  }
  if (def.invert_result === true) out.push('then inverted');
  return out;
}

const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

function expiry(daysLeft: number): string {
  if (daysLeft < 0) return `expired ${plural(-daysLeft, 'day')} ago`;
  if (daysLeft === 0) return 'expires today';
  return `expires in ${plural(daysLeft, 'day')}`;
}

/** Lines explaining `outcome`, a run of `def`. Secrets of the URL are masked. */
export function explain(outcome: ProbeOutcome, def: CheckDefinition): string[] {
  const rule = outcome.decidedBy;
  const lines = [`${outcome.success ? 'PASS' : 'FAIL'}  ${redactUrl(def.url)}`];
  if (outcome.success && rule === 'all-rules') {
    const wanted = expectations(def);
    lines.push(`verdict: pass — every rule passed${wanted.length === 0 ? '' : ` (${wanted.join('; ')})`}`);
  } else if (outcome.success) {
    lines.push(
      `verdict: pass — decided by ${ruleNames[rule]}${rule === 'inverted' ? ': the target failed, which this check expects' : ''}`,
    );
  } else {
    lines.push(`verdict: fail — decided by ${ruleNames[rule]}: ${outcome.error}`);
  }
  if (outcome.httpStatus !== 0) lines.push(`status: ${outcome.httpStatus}`);
  lines.push(`latency: ${outcome.latencyMs === 0 ? 'nothing came back' : `${outcome.latencyMs} ms`}`);
  const t = outcome.timings;
  if (t !== undefined) {
    const phases = [
      t.dnsMs === undefined ? '' : `DNS ${t.dnsMs} ms`,
      t.connectMs === undefined ? '' : `connect ${t.connectMs} ms`,
      t.tlsMs === undefined ? '' : `TLS ${t.tlsMs} ms`,
      t.firstByteMs === undefined ? '' : `first byte ${t.firstByteMs} ms`,
      `total ${t.totalMs} ms`,
    ].filter((p) => p !== '');
    lines.push(`timings: ${phases.join(' · ')}`);
  }
  const cert = outcome.certificate;
  if (cert !== undefined) {
    lines.push(`certificate: ${cert.subject}; issuer ${cert.issuer}; ${expiry(cert.daysLeft)} (${cert.validTo})`);
  }
  if (outcome.viaProxy !== undefined) lines.push(`through the proxy ${outcome.viaProxy}`);
  if (outcome.responseSample !== '') {
    const firstLine = outcome.responseSample.split(/\r?\n/, 1)[0] ?? '';
    lines.push(`sample: ${firstLine.length > 200 ? `${firstLine.slice(0, 200)}…` : firstLine}`);
  }
  return lines;
}
