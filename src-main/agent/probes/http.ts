// The http(s) probe: one request per hop on a fresh connection, redirects followed in its own
// bounded loop, the body read only as far as the verdict and the sample need.
//
// Latency is measured from the start of the run to the response headers of the evaluated
// (final) response, so a redirect chain counts in full: that is the wait a user of the site
// sees. Timings are those of the final connection; cert_expiry_warn_days judges the
// certificate of every https hop, the URL the check names first (issue 10 §4).
import type { CheckDefinition } from '../wire/schemas.ts';
import type { ConnectionTrace } from './trace.ts';
import { codingProblem, contentCodings, charsetOf, decodedBody } from './body-decoding.ts';
import { createCookieJar } from './cookie-jar.ts';
import { capDetail } from './detail.ts';
import { cancelledError } from './errors.ts';
import { probeDefaults } from './defaults.ts';
import { sendHop, type Hop } from './http-hop.ts';
import { hopKey, redirectTarget, redirectedPlan, withCookies } from './http-redirect.ts';
import { planRequest, withUrlCredentials, type RequestPlan } from './http-request.ts';
import { redactUrl } from './redact.ts';
import { failure, invalidDefinition, outcomeOf, withRun, type Run } from './run.ts';
import { parseTarget } from './target.ts';
import { createTextScanner, type ScanResult } from './text-scanner.ts';
import type { CertificateInfo, DecidingRule, Probe, ProbeOutcome } from './types.ts';
import {
  certExpiryVerdict,
  firstFailure,
  matchRuleProblem,
  matchVerdict,
  passed,
  responseTimeVerdict,
  statusRuleProblem,
  statusVerdict,
  type Verdict,
} from './verdict.ts';

/** The expiry judgement over the hops so far: the first https hop that failed it decides. */
interface CertJudgement {
  verdict: Verdict;
  certificate: CertificateInfo | undefined;
}

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
  // The hops this run has been redirected from, made at the first redirect: most runs have none.
  let visited: Set<string> | undefined;
  // A fresh jar per run: a gate that sets a cookie and redirects to itself is no loop, since the
  // next visit carries the cookie (loops are keyed by request and cookies sent).
  const jar = createCookieJar(() => run.wallClock().getTime());
  let plan = firstPlan;
  let url = firstUrl;
  let previous: Hop | undefined;
  let certs: CertJudgement = { verdict: passed, certificate: undefined };
  for (let redirects = 0; ; redirects++) {
    const request = withUrlCredentials(plan, url);
    const cookies = jar.header(request.url);
    const trace: ConnectionTrace = { startedAt: run.now() };
    let hop: Hop;
    try {
      hop = await sendHop(run, request.url, withCookies(request.plan, cookies), trace, insecure);
    } catch (err) {
      // An earlier redirect response is an answer too: latency counts to it.
      return failure(run, err, request.url.hostname, trace, previous?.headersAt);
    }
    jar.store(hop.setCookie, request.url);
    certs = judgeCertificate(certs, trace.certificate, def.cert_expiry_warn_days);
    const step = def.disable_redirects === true ? undefined : redirectTarget(hop.status, hop.location, request.url);
    if (step === undefined) return await evaluate(def, run, hop, trace, request.url.hostname, certs);
    await hop.close();
    if ('problem' in step) return answered(run, hop, trace, step.problem, 'redirect', '');
    if (redirects >= probeDefaults.maxRedirects) {
      return answered(run, hop, trace, `too many redirects (more than ${probeDefaults.maxRedirects})`, 'redirect', '');
    }
    (visited ??= new Set()).add(`${hopKey(request.plan, request.url)} ${cookies ?? ''}`);
    plan = redirectedPlan(request.plan, hop.status, request.url, step.url);
    url = step.url;
    if (visited.has(`${hopKey(plan, url)} ${jar.header(url) ?? ''}`)) {
      return answered(run, hop, trace, `redirect loop at ${redactUrl(url.href)}`, 'redirect', '');
    }
    previous = hop;
  }
}

/**
 * Adds one hop's certificate to the judgement: the first failing certificate is the one reported,
 * else the first https hop's (the URL the check names, when it is https).
 */
function judgeCertificate(
  so: CertJudgement,
  cert: CertificateInfo | undefined,
  warnDays: number | undefined,
): CertJudgement {
  if (cert === undefined || !so.verdict.pass) return so;
  const verdict = certExpiryVerdict(cert, warnDays);
  return { verdict, certificate: verdict.pass ? (so.certificate ?? cert) : cert };
}

/** Reads what the verdict and the sample need of the body, then applies every rule. */
async function evaluate(
  def: CheckDefinition,
  run: Run,
  hop: Hop,
  trace: ConnectionTrace,
  host: string,
  certs: CertJudgement,
): Promise<ProbeOutcome> {
  const codings = contentCodings(hop.contentEncoding);
  const body = await readBody(def, run, hop, codings, host);
  await hop.close();
  const sample = capDetail(body.scan.sample, run.sampleChars);
  if (run.cancelled()) return answered(run, hop, trace, cancelledError, 'cancelled', sample);
  // A body cut short always fails; one that could not be decoded only when the verdict reads it.
  if (body.error !== '' && (def.match_string !== '' || body.endedEarly)) {
    return answered(run, hop, trace, body.error, 'body', sample);
  }
  const latencyMs = run.latencyAt(hop.headersAt);
  // At the cap, say that the rest was not examined and, for a compressed body, that the limit
  // applies to the decoded bytes (a compression bomb shows up here, not as exhausted memory).
  const decoded = codings.length === 0 ? '' : ` (decoded from ${codings.join(', ')})`;
  const subject = body.scan.capped ? `first ${mib} MiB of the body${decoded}` : 'body';
  const verdict = firstFailure(
    statusVerdict(hop.status, def.status_code_op, def.status_code_value),
    matchVerdict(subject, def.match_string, def.match_mode, body.scan.found),
    responseTimeVerdict(latencyMs, def.max_response_time_ms),
    certs.verdict,
  );
  // The certificate shown is the one that failed the expiry rule, else the final connection's.
  if (verdict.rule === 'certificate' && certs.certificate !== undefined) trace.certificate = certs.certificate;
  else trace.certificate ??= certs.certificate;
  return answered(run, hop, trace, verdict.reason, verdict.rule, sample);
}

interface BodyRead {
  scan: ScanResult;
  /** Why the body could not be read in full; '' when it could (or was not needed). */
  error: string;
  /** The body ended before its declared length or its last chunk. */
  endedEarly: boolean;
}

const emptyScan: ScanResult = { found: false, sample: '', bytes: 0, capped: false };

/**
 * Reads what the verdict and the sample need of the body, decoded (Content-Encoding undone,
 * then the charset) as a browser would. The byte cap applies to the decoded bytes. Reading stops
 * once a match settles the verdict; a check without a match string reads on to the end of a
 * short body (probeDefaults.completeBodyBytes at least), undecoded when it keeps no sample. When
 * the reading reaches the end and the body ended before its declared length or its last chunk,
 * the body was cut: that fails the run whatever the check matches (issue 24 §4).
 */
async function readBody(def: CheckDefinition, run: Run, hop: Hop, codings: string[], host: string): Promise<BodyRead> {
  const statusOnly = def.match_string === '';
  const problem = codingProblem(codings);
  if (!statusOnly && problem !== '') return { scan: emptyScan, error: problem, endedEarly: false };
  const decode = problem === '' && (!statusOnly || run.sampleChars > 0) ? codings : undefined;
  // Nothing to examine and the whole message already parsed: nothing left that could be cut.
  if (decode === undefined && hop.complete()) return { scan: emptyScan, error: '', endedEarly: false };
  const charset = charsetOf(hop.contentType);
  const scanner =
    decode === undefined
      ? undefined
      : createTextScanner({
          matchString: def.match_string,
          matchMode: def.match_mode,
          sampleChars: run.sampleChars,
          maxBytes: probeDefaults.maxBodyBytes,
          ...(charset === undefined ? {} : { charset }),
          html: /html/i.test(hop.contentType ?? ''),
        });
  let received = 0;
  let examined = 0;
  /** Reading stopped by choice (verdict settled, enough read), not at the body's end. */
  const reading = { enough: false };
  const take = (chunk: Buffer): boolean => {
    examined += chunk.length;
    const settled = scanner?.push(chunk) ?? true;
    reading.enough =
      (statusOnly ? settled && examined >= probeDefaults.completeBodyBytes : settled) ||
      examined >= probeDefaults.maxBodyBytes;
    return reading.enough;
  };
  let error = '';
  try {
    if (decode === undefined || decode.length === 0) {
      await hop.feed((chunk) => {
        received += chunk.length;
        return take(chunk);
      });
    } else {
      const raw = counted(hop.chunks(), (n) => (received += n));
      for await (const chunk of decodedBody(raw, decode)) if (take(chunk)) break;
    }
  } catch (err) {
    const reason = run.reason(err, host);
    error = run.rule(err) === 'body' ? reason : `${reason} while reading the body`;
  }
  const scan = scanner?.finish() ?? emptyScan;
  if (!reading.enough && !run.stopped() && !hop.complete()) {
    return { scan, error: endedEarly(received, hop.contentLength), endedEarly: true };
  }
  return { scan, error, endedEarly: false };
}

async function* counted(body: AsyncIterable<Buffer>, add: (bytes: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    add(chunk.length);
    yield chunk;
  }
}

function endedEarly(received: number, declared: number | undefined): string {
  return declared === undefined
    ? `the response ended early: the body stopped after ${received} bytes`
    : `the response ended early: ${received} of ${declared} bytes arrived`;
}

/** An outcome for a response that arrived; an empty error means success. */
function answered(
  run: Run,
  hop: Hop,
  trace: ConnectionTrace,
  error: string,
  rule: DecidingRule,
  sample: string,
): ProbeOutcome {
  return outcomeOf(run, trace, {
    httpStatus: hop.status,
    latencyMs: run.latencyAt(hop.headersAt),
    error,
    rule,
    responseSample: sample,
    sampleKind: 'body',
  });
}
