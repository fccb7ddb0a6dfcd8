// An undici connector that records when each phase of one connection happened and which
// certificate the peer presented, and that verifies the certificate itself (see certificate.ts).
import { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { buildConnector } from 'undici';
import { peerCertificate, rejection } from './certificate.ts';
import type { Run } from './run.ts';
import { traceSocket, type ConnectionTrace } from './trace.ts';

export interface TracingOptions {
  run: Run;
  trace: ConnectionTrace;
  insecure: boolean;
  /** Host name the certificate must match, for the error text. */
  host: string;
}

/**
 * A fresh connector per connection: TLS session cache off (a full handshake every run, so
 * certificate problems are seen), HTTP/1.1 only, the run's deadline as connect timeout.
 */
export function tracingConnector({ run, trace, insecure, host }: TracingOptions): buildConnector.connector {
  const base = buildConnector({
    maxCachedSessions: 0,
    allowH2: false,
    timeout: run.timeoutMs,
    rejectUnauthorized: false,
    ...(run.ca === undefined ? {} : { ca: run.ca }),
  });
  return (options, callback) => {
    // buildConnector returns the socket it creates (its typings say void); tracing it before
    // connecting is the only way to see the lookup and connect phases.
    const created: unknown = base(options, (err, socket) => {
      if (err !== null) {
        callback(err, null);
        return;
      }
      trace.connectedAt ??= run.now();
      if (socket instanceof TLSSocket) {
        trace.secureAt = run.now();
        const certificate = peerCertificate(socket, run.wallClock);
        if (certificate !== undefined) trace.certificate = certificate;
        const refused = rejection(socket, host, insecure, certificate);
        if (refused !== undefined) {
          socket.destroy();
          callback(refused, null);
          return;
        }
      }
      callback(null, socket);
    });
    if (created instanceof Socket) traceSocket(created, trace, run.now);
  };
}
