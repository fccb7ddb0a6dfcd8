// The http(s) probe: one request per hop on a fresh connection, redirects followed in its own
// bounded loop, the body read only as far as the verdict and the sample need.
//
// Latency is measured from the start of the run to the response headers of the evaluated
// (final) response, so a redirect chain counts in full: that is the wait a user of the site
// sees. Timings and the certificate are those of the final connection.
import type { CheckDefinition } from '../wire/schemas.ts';
import { answeredAt, type ConnectionTrace } from './trace.ts';
import { capDetail } from './detail.ts';
import { cancelledError } from './errors.ts';
import { probeDefaults } from './defaults.ts';
import { sendHop, type Hop } from './http-hop.ts';
import { hopKey, redirectTarget, redirectedPlan } from './http-redirect.ts';
import { planRequest, withUrlCredentials, type RequestPlan } from './http-request.ts';
import { redactUrl } from './redact.ts';
import { invalidDefinition, outcomeOf, parseTarget, withRun, type Run } from './run.ts';
import { createTextScanner, type ScanResult } from './text-scanner.ts';
import type { Probe, ProbeOutcome } from './types.ts';
import {
  certExpiryVerdict,
  firstFailure,
  matchRuleProblem,
  matchVerdict,
  responseTimeVerdict,
  statusRuleProblem,
  statusVerdict,
} from './verdict.ts';

const mib = probeDefaults.maxBodyBytes / (1024 * 1024);

export const httpProbe: Probe = async (def, ctx) => {
  const url = parseTarget(def.url);
  if ('problem' in url) return invalidDefinition(url.problem);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return invalidDefinition(`http probe cannot run a ${url.protocol} URL`);
  }
  const plan = planRequest(def);
  if ('problem' in plan) return invalidDefinition(plan.problem);
  const problem = statusRuleProblem(def.status_code_op, def.status_code_value) || matchRuleProblem(def.match_mode);
  if (problem !== '') return invalidDefinition(problem);
  return withRun(def, ctx, (run) => follow(def, run, plan, url));
};

async function follow(def: CheckDefinition, run: Run, firstPlan: RequestPlan, firstUrl: URL): Promise<ProbeOutcome> {
  const insecure = def.insecure_skip_verify === true;
  const visited = new Set<string>();
  let plan = firstPlan;
  let url = firstUrl;
  let previous: Hop | undefined;
  for (let redirects = 0; ; redirects++) {
    const request = withUrlCredentials(plan, url);
    visited.add(hopKey(request.plan, request.url));
    const trace: ConnectionTrace = { startedAt: run.now() };
    let hop: Hop;
    try {
      hop = await sendHop(run, request.url, request.plan, trace, insecure);
    } catch (err) {
      return noResponse(run, trace, run.reason(err, request.url.hostname), previous);
    }
    const step = def.disable_redirects === true ? undefined : redirectTarget(hop.status, hop.location, request.url);
    if (step === undefined) return await evaluate(def, run, hop, trace, request.url.hostname);
    await hop.close();
    if ('problem' in step) return answered(run, hop, trace, step.problem, '');
    if (redirects >= probeDefaults.maxRedirects) {
      return answered(run, hop, trace, `too many redirects (more than ${probeDefaults.maxRedirects})`, '');
    }
    plan = redirectedPlan(request.plan, hop.status, request.url, step.url);
    url = step.url;
    if (visited.has(hopKey(plan, url))) return answered(run, hop, trace, `redirect loop at ${redactUrl(url.href)}`, '');
    previous = hop;
  }
}

/** Reads what the verdict and the sample need of the body, then applies every rule. */
async function evaluate(def: CheckDefinition, run: Run, hop: Hop, trace: ConnectionTrace, host: string): Promise<ProbeOutcome> {
  let scan: ScanResult = { found: false, sample: '', bytes: 0, capped: false };
  let readError = '';
  if (def.match_string !== '' || run.sampleChars > 0) {
    const scanner = createTextScanner({
      matchString: def.match_string,
      matchMode: def.match_mode,
      sampleChars: run.sampleChars,
      maxBytes: probeDefaults.maxBodyBytes,
    });
    try {
      for await (const chunk of hop.body as AsyncIterable<Buffer>) if (scanner.push(chunk)) break;
    } catch (err) {
      readError = run.reason(err, host);
    }
    scan = scanner.finish();
  }
  await hop.close();
  const sample = capDetail(scan.sample, run.sampleChars);
  if (run.cancelled()) return answered(run, hop, trace, cancelledError, sample);
  // A body that could not be read only matters when the verdict depends on it.
  if (readError !== '' && def.match_string !== '') {
    return answered(run, hop, trace, `${readError} while reading the body`, sample);
  }
  const latencyMs = run.latencyAt(hop.headersAt);
  const verdict = firstFailure(
    statusVerdict(hop.status, def.status_code_op, def.status_code_value),
    matchVerdict(scan.capped ? `first ${mib} MiB of the body` : 'body', def.match_string, def.match_mode, scan.found),
    responseTimeVerdict(latencyMs, def.max_response_time_ms),
    certExpiryVerdict(trace.certificate, def.cert_expiry_warn_days),
  );
  return answered(run, hop, trace, verdict.reason, sample);
}

/** An outcome for a response that arrived; an empty error means success. */
function answered(run: Run, hop: Hop, trace: ConnectionTrace, error: string, sample: string): ProbeOutcome {
  return outcomeOf(run, trace, {
    httpStatus: hop.status,
    latencyMs: run.latencyAt(hop.headersAt),
    error,
    responseSample: sample,
    sampleKind: 'body',
  });
}

/**
 * An outcome for a hop that produced no response. Latency stays 0 only if nothing came back at
 * all: a TLS handshake, stray bytes or an earlier redirect response are answers.
 */
function noResponse(run: Run, trace: ConnectionTrace, error: string, previous: Hop | undefined): ProbeOutcome {
  const at = answeredAt(trace) ?? previous?.headersAt;
  return outcomeOf(run, trace, { latencyMs: at === undefined ? 0 : run.latencyAt(at), error });
}
