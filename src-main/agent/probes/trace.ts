// When each phase of one connection happened, and the durations reported from it.
import type { Socket } from 'node:net';
import type { CertificateInfo, ProbeTimings } from './types.ts';

/** Monotonic timestamps (run clock) of one connection's phases. */
export interface ConnectionTrace {
  startedAt: number;
  lookupAt?: number;
  connectedAt?: number;
  secureAt?: number;
  firstByteAt?: number;
  certificate?: CertificateInfo;
  /** The connection went through this proxy (credentials masked). */
  viaProxy?: string;
}

/** Phase durations of a traced connection, each rounded up; `totalMs` is the caller's. */
export function timingsOf(trace: ConnectionTrace, totalMs: number): ProbeTimings {
  const span = (from: number | undefined, to: number | undefined): number | undefined =>
    from === undefined || to === undefined ? undefined : Math.max(0, Math.ceil(to - from));
  const ready = trace.secureAt ?? trace.connectedAt;
  const timings: ProbeTimings = { totalMs };
  const dnsMs = span(trace.startedAt, trace.lookupAt);
  const connectMs = span(trace.lookupAt ?? trace.startedAt, trace.connectedAt);
  const tlsMs = span(trace.connectedAt, trace.secureAt);
  const firstByteMs = span(ready, trace.firstByteAt);
  if (dnsMs !== undefined) timings.dnsMs = dnsMs;
  if (connectMs !== undefined) timings.connectMs = connectMs;
  if (tlsMs !== undefined) timings.tlsMs = tlsMs;
  if (firstByteMs !== undefined) timings.firstByteMs = firstByteMs;
  return timings;
}

/** When the target first answered at all: TLS handshake done or a first byte received. */
export function answeredAt(trace: ConnectionTrace): number | undefined {
  return trace.secureAt ?? trace.firstByteAt;
}

/** Records when `socket` finished its name lookup and its TCP connect into `trace`. */
export function traceConnect(socket: Socket, trace: ConnectionTrace, now: () => number): void {
  socket.once('lookup', () => (trace.lookupAt = now()));
  socket.once('connect', () => (trace.connectedAt ??= now()));
}
