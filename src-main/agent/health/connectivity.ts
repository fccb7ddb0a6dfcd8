// Is this machine online? Asked when the server cannot be reached or a check fails with nothing
// back: a TCP connect to each connectivity target (the server, plus any the user configured).
// Any target that answers at all = online. A refused connection is an answer: the network
// carried the packet and the host replied, so a stopped server (or any closed port) proves the
// network works. Only timeouts, unreachable networks and lookups with no answer mean offline.
// A probe that could not even be made (this machine out of descriptors or memory) says nothing.
import { localFaultOf } from '../base/local-fault.ts';
import { bareHost, portOf } from '../base/url-parts.ts';
import type { Endpoint } from '../wire/endpoint.ts';

export type { Endpoint } from '../wire/endpoint.ts';
const { connect } = process.getBuiltinModule('node:net');

export interface ConnectivityOptions {
  targets: () => readonly Endpoint[];
  /** Per target connect timeout. */
  timeoutMs: number;
  monotonic: () => number;
}

/** 'unknown': no target answered, and at least one could not be tried (a local fault). */
export type Reachability = 'online' | 'offline' | 'unknown';

export interface Connectivity {
  /**
   * Whether any target answers, from a probe that started at or after `since` (monotonic ms):
   * a verdict from before a failure says nothing about it. A burst of failures shares a probe.
   */
  probe(since: number): Promise<Reachability>;
}

export function endpointOf(url: string): Endpoint {
  const u = new URL(url);
  return { host: bareHost(u.hostname), port: portOf(u) };
}

/** Parses "host:port" (IPv6 as "[::1]:443"); undefined when it is not one. */
export function parseEndpoint(text: string): Endpoint | undefined {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(text.trim());
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535 || match[1] === undefined) return undefined;
  return { host: match[1], port };
}

/**
 * Codes that mean the target (or its name server) answered: a refusal or a reset comes from the
 * host itself, and "no such name" is an answer from DNS.
 */
const answerCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND']);

/**
 * True when the target answers anything within timeoutMs (a connection, a refusal); undefined
 * when this machine could not make the attempt (out of descriptors, memory, buffers).
 */
export function tcpAnswers(target: Endpoint, timeoutMs: number): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    let socket: ReturnType<typeof connect>;
    try {
      socket = connect({ host: target.host, port: target.port });
    } catch (error) {
      resolve(localFaultOf(error) === undefined ? false : undefined);
      return;
    }
    let settled = false;
    const done = (answered: boolean | undefined): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(answered);
    };
    // The timeout concludes only after this turn's network events: when the process was held up
    // past it (a long commit, a loaded machine), the connect that completed meanwhile is due in
    // the same turn, after the timers, and an answer that came is not called silence.
    socket.setTimeout(timeoutMs, () => setImmediate(() => done(false)));
    socket.once('connect', () => done(true));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(localFaultOf(error) !== undefined ? undefined : answerCodes.has(error.code ?? '')),
    );
  });
}

export function createConnectivity(options: ConnectivityOptions): Connectivity {
  let latest: { startedAt: number; verdict: Promise<Reachability>; settled: boolean } | undefined;
  let queued: Promise<Reachability> | undefined;

  function probeAll(): Promise<Reachability> {
    const targets = options.targets();
    // Any one answering settles the question; the others need not be waited for.
    return new Promise<Reachability>((resolve) => {
      let pending = targets.length;
      let untried = false;
      if (pending === 0) resolve('offline');
      for (const target of targets) {
        void tcpAnswers(target, options.timeoutMs).then((ok) => {
          pending--;
          if (ok === undefined) untried = true;
          if (ok === true) resolve('online');
          else if (pending === 0) resolve(untried ? 'unknown' : 'offline');
        });
      }
    });
  }

  function start(): Promise<Reachability> {
    const probe = { startedAt: options.monotonic(), verdict: probeAll(), settled: false };
    latest = probe;
    void probe.verdict.then(() => (probe.settled = true));
    return probe.verdict;
  }

  return {
    probe(since) {
      if (latest !== undefined && latest.startedAt >= since) return latest.verdict;
      if (latest === undefined || latest.settled) return start();
      // One in flight began too early for this caller: the next one, shared, starts after it.
      queued ??= latest.verdict.then(() => {
        queued = undefined;
        return start();
      });
      return queued;
    },
  };
}
