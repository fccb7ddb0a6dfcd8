// The connection an http(s) hop sends its request over: dialled through dial.ts (egress
// policy, proxy, pinned addresses), each phase recorded in the trace with the certificate the
// peer presented, which is verified here (see certificate.ts). A fresh connection per request:
// no TLS session reuse (a full handshake every run, so certificate problems are seen), HTTP/1.1
// only, bounded by the run's deadline.
import type { Socket } from 'node:net';
import { peerCertificate, rejection } from './certificate.ts';
import { dialTcp, serverNameOf, upgradeTls } from './dial.ts';
import type { Run } from './run.ts';
import type { ConnectionTrace } from './trace.ts';

/** `host` is the name the certificate must match, for the error text. */
export async function connectTraced(
  run: Run,
  trace: ConnectionTrace,
  hostname: string,
  port: number,
  secure: boolean,
  insecure: boolean,
  host: string,
): Promise<Socket> {
  const raw = await dialTcp(run, hostname, port, trace);
  if (!secure) return raw;
  const socket = await upgradeTls(run, raw, trace, { servername: serverNameOf(hostname), alpn: ['http/1.1'] });
  const certificate = peerCertificate(socket, run.wallClock);
  if (certificate !== undefined) trace.certificate = certificate;
  const refused = rejection(socket, host, insecure, certificate);
  if (refused !== undefined) {
    socket.destroy();
    throw refused;
  }
  return socket;
}
