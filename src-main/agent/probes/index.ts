// The entry the scheduler calls: picks the probe for the URL's scheme and applies
// invert_result last, after every rule has spoken.
import { localFaultError, localFaultOf } from '../base/local-fault.ts';
import { checkSchemeList, checkSchemeOf, type CheckScheme } from '../wire/check-schemes.ts';
import type { CheckDefinition } from '../wire/schemas.ts';
import { probeDefaults } from './defaults.ts';
import { capDetail } from './detail.ts';
import { describeError } from './errors.ts';
import { httpProbe } from './http.ts';
import { invalidDefinition } from './run.ts';
import { parseTarget } from './target.ts';
import { tcpProbe } from './tcp.ts';
import { tlsProbe } from './tls.ts';
import type { Probe, ProbeContext, ProbeOutcome } from './types.ts';
import { invertOutcome } from './verdict.ts';

export type {
  CertificateInfo,
  CheckProxy,
  DecidingRule,
  EgressPolicy,
  Probe,
  ProbeContext,
  ProbeOutcome,
  ProbeTimings,
  ResolvedAddress,
  Resolver,
} from './types.ts';
export { capDetail } from './detail.ts';
export { explain } from './explain.ts';
export { egressRefusal } from './egress.ts';
export { redactHeaders, redactUrl } from './redact.ts';
export { probeDefaults } from './defaults.ts';
export { effectiveTimeoutSec } from './run.ts';

const probesByScheme: Record<CheckScheme, Probe> = {
  http: httpProbe,
  https: httpProbe,
  tcp: tcpProbe,
  tls: tlsProbe,
};

/** Runs one check once. Never throws: every problem is a failed outcome with a reason. */
export async function runProbe(def: CheckDefinition, ctx: ProbeContext = {}): Promise<ProbeOutcome> {
  const url = parseTarget(def.url);
  if ('problem' in url) return invalidDefinition(url.problem);
  const scheme = checkSchemeOf(url.protocol);
  if (scheme === undefined) return invalidDefinition(`unsupported scheme ${url.protocol} (use ${checkSchemeList()})`);
  const probe = probesByScheme[scheme];
  let outcome: ProbeOutcome;
  try {
    outcome = await probe(def, ctx);
  } catch (err) {
    // A bug, not a verdict about the target: reported, and returned before invert can turn it
    // into a pass.
    const localFault = localFaultOf(err);
    const error =
      localFault === undefined
        ? `probe failed unexpectedly: ${describeError(err, url.hostname)}`
        : localFaultError(localFault);
    return bounded({
      success: false,
      httpStatus: 0,
      latencyMs: 0,
      answered: false,
      decidedBy: 'connection',
      error,
      responseSample: '',
      ...(localFault === undefined ? {} : { localFault }),
    });
  }
  // A run this machine could not make is no verdict to flip. The raw verdict travels with a
  // flipped one: the offline policy judges what happened, not what invert_result made of it.
  if (def.invert_result !== true || outcome.localFault !== undefined) return bounded(outcome);
  return bounded({ ...invertOutcome(outcome), rawSuccess: outcome.success });
}

/** The outcome with error and sample within their ceilings, so every result fits the wire. */
function bounded(outcome: ProbeOutcome): ProbeOutcome {
  return {
    ...outcome,
    error: capDetail(outcome.error, probeDefaults.maxErrorChars),
    responseSample: capDetail(outcome.responseSample, probeDefaults.maxSampleChars),
  };
}
