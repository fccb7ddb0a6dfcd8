// One run explained: the verdict, which rule decided it, the phase timings and, for https/tls,
// the certificate, and the start of what the target sent (masked or withheld for a private check).
// Used for the last run in the detail pane and for a "Run now" test run.
import type { RunExplanation } from '../../src-main/ipc/contract.ts';
import { dateTime, milliseconds, sentence } from '../format.ts';

/** The rule that decided a verdict, in words. */
const ruleWords: Record<string, string> = {
  'all-rules': 'every rule (all passed)',
  status: 'the status rule',
  match: 'the content match',
  'response-time': 'the response-time limit',
  certificate: 'the certificate expiry rule',
  inverted: 'the inverted result',
  connection: 'the connection itself',
  timeout: 'the timeout',
  redirect: 'the redirects',
  body: 'reading the body',
  'egress-policy': 'the egress policy',
  definition: 'the check’s definition',
};

const sampleTitle: Record<string, string> = {
  body: 'Start of the response',
  banner: 'What the server sent first',
  certificate: 'Certificate summary',
};

export function decidedByWords(rule: string | undefined): string | undefined {
  return rule === undefined ? undefined : (ruleWords[rule] ?? rule.replace(/-/g, ' '));
}

export function RunExplanationView({ run, title }: { run: RunExplanation; title: string }) {
  const t = run.timings;
  const rule = decidedByWords(run.decidedBy);
  const cert = run.certificate;
  return (
    <section className="run-explanation" aria-label={title}>
      <p className={run.success ? 'ok-text' : 'bad-text'}>
        <strong>{run.success ? 'Passed' : 'Failed'}</strong>
        {run.httpStatus > 0 ? ` · HTTP ${run.httpStatus}` : ''}
        {run.latencyMs > 0 ? ` · ${milliseconds(run.latencyMs)}` : ''}
        {rule === undefined ? '' : ` · decided by ${rule}`}
        <span className="muted">
          {' '}
          · {dateTime(run.ranAt)}
          {run.test ? ' · test run, not uploaded' : ''}
        </span>
      </p>
      {run.error === '' ? null : <p className="h-error">{sentence(run.error)}</p>}
      {t === undefined ? null : (
        <dl className="timings" aria-label="Phase timings">
          {t.dnsMs === undefined ? null : (
            <>
              <dt>DNS</dt>
              <dd>{t.dnsMs} ms</dd>
            </>
          )}
          {t.connectMs === undefined ? null : (
            <>
              <dt>Connect</dt>
              <dd>{t.connectMs} ms</dd>
            </>
          )}
          {t.tlsMs === undefined ? null : (
            <>
              <dt>TLS</dt>
              <dd>{t.tlsMs} ms</dd>
            </>
          )}
          {t.firstByteMs === undefined ? null : (
            <>
              <dt>First byte</dt>
              <dd>{t.firstByteMs} ms</dd>
            </>
          )}
          <dt>Total</dt>
          <dd>{t.totalMs} ms</dd>
        </dl>
      )}
      {run.sample === undefined && run.sampleWithheld !== true ? null : (
        <div className="run-sample">
          <span className="muted">{sampleTitle[run.sampleKind ?? 'body']}</span>
          {run.sampleWithheld === true ? (
            <p className="muted">Not shown for this private check: it holds part of the check’s private definition.</p>
          ) : (
            <pre className="code-block">{run.sample}</pre>
          )}
        </div>
      )}
      {cert === undefined ? null : (
        <dl className="timings" aria-label="Certificate">
          <dt>Certificate</dt>
          <dd className="wrap">{cert.subject}</dd>
          <dt>Issuer</dt>
          <dd className="wrap">{cert.issuer}</dd>
          <dt>Expires</dt>
          <dd className={cert.daysLeft < 14 ? 'bad-text' : undefined}>
            {cert.daysLeft < 0 ? `expired ${-cert.daysLeft} days ago` : `in ${cert.daysLeft} days`} (
            {dateTime(cert.validTo)})
          </dd>
        </dl>
      )}
    </section>
  );
}
