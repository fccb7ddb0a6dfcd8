// An undici connector that dials through dial.ts (egress policy, proxy, pinned addresses),
// records when each phase of one connection happened and which certificate the peer presented,
// and verifies the certificate itself (see certificate.ts).
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { peerCertificate, rejection } from './certificate.ts';
import { dialTcp, serverNameOf, upgradeTls } from './dial.ts';
import type { Run } from './run.ts';
import { traceFirstByte, type ConnectionTrace } from './trace.ts';

export interface TracingOptions {
  run: Run;
  trace: ConnectionTrace;
  insecure: boolean;
  /** Host name the certificate must match, for the error text. */
  host: string;
}

/**
 * A fresh connection per request: no TLS session reuse (a full handshake every run, so
 * certificate problems are seen), HTTP/1.1 only, bounded by the run's deadline.
 */
export function tracingConnector({ run, trace, insecure, host }: TracingOptions): buildConnector.connector {
  return (options, callback) => {
    const port = Number(options.port !== '' ? options.port : options.protocol === 'https:' ? 443 : 80);
    const hostname = options.hostname.replace(/^\[(.*)\]$/, '$1');
    connectTraced(run, trace, hostname, port, options.protocol === 'https:', insecure, host).then(
      (socket) => callback(null, socket),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  };
}

async function connectTraced(
  run: Run,
  trace: ConnectionTrace,
  hostname: string,
  port: number,
  secure: boolean,
  insecure: boolean,
  host: string,
): Promise<Socket> {
  const raw = await dialTcp(run, hostname, port, trace);
  if (!secure) {
    traceFirstByte(raw, trace, run.now);
    return raw;
  }
  const socket = await upgradeTls(run, raw, trace, { servername: serverNameOf(hostname), alpn: ['http/1.1'] });
  const certificate = peerCertificate(socket, run.wallClock);
  if (certificate !== undefined) trace.certificate = certificate;
  const refused = rejection(socket, host, insecure, certificate);
  if (refused !== undefined) {
    socket.destroy();
    throw refused;
  }
  traceFirstByte(socket, trace, run.now);
  return socket;
}
