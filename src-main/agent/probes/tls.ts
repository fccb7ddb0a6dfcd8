// The tls probe: a bare TLS handshake (nothing sent on top), for services that expect TLS as
// the first bytes on the wire. Latency is the handshake done; the sample is a one-line
// certificate summary, which is also what match_string is matched against.
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { certificateSummary, peerCertificate, rejection } from './certificate.ts';
import { capDetail } from './detail.ts';
import { dialTcp, serverNameOf, upgradeTls } from './dial.ts';
import { cancelledError, describeError } from './errors.ts';
import { failure, invalidDefinition, outcomeOf, withRun } from './run.ts';
import { closeGracefully, socketTarget } from './socket-wait.ts';
import type { ConnectionTrace } from './trace.ts';
import type { Probe } from './types.ts';
import { certExpiryVerdict, firstFailure, matchVerdict, responseTimeVerdict } from './verdict.ts';

export const tlsProbe: Probe = async (def, ctx) => {
  const endpoint = socketTarget(def);
  if ('problem' in endpoint) return invalidDefinition(endpoint.problem);
  return withRun(def, ctx, async (run) => {
    const trace: ConnectionTrace = { startedAt: run.now() };
    const { host, port } = endpoint;
    let socket: TLSSocket;
    try {
      const raw: Socket = await dialTcp(run, host, port, trace);
      // SNI carries host names only (RFC 6066); for an IP literal the certificate is still
      // checked against the address.
      socket = await upgradeTls(run, raw, trace, { servername: serverNameOf(host) });
    } catch (err) {
      return failure(run, err, host, trace);
    }
    const certificate = peerCertificate(socket, run.wallClock);
    if (certificate !== undefined) trace.certificate = certificate;
    const refused = rejection(socket, host, def.insecure_skip_verify === true, certificate);
    closeGracefully(socket);
    const latencyMs = run.latencyAt(trace.secureAt ?? run.now());
    const summary = certificate === undefined ? '' : certificateSummary(certificate, run.wallClock());
    const sample = capDetail(summary, run.sampleChars);
    const observed = { latencyMs, responseSample: sample, sampleKind: 'certificate' as const };
    if (run.cancelled()) return outcomeOf(run, trace, { ...observed, error: cancelledError });
    if (refused !== undefined) {
      return outcomeOf(run, trace, { ...observed, error: describeError(refused, host), rule: 'certificate' });
    }
    const verdict = firstFailure(
      matchVerdict('certificate summary', def.match_string, def.match_mode, summary.includes(def.match_string)),
      responseTimeVerdict(latencyMs, def.max_response_time_ms),
      certExpiryVerdict(certificate, def.cert_expiry_warn_days),
    );
    return outcomeOf(run, trace, { ...observed, error: verdict.reason, rule: verdict.rule });
  });
};
