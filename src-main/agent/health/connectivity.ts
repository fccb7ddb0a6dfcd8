// Is this machine online? Asked when the server cannot be reached or a check fails with nothing
// back: a TCP connect to each connectivity target (the server, plus any the user configured).
// Any connect that succeeds = online. A refused connection does not count: a stopped server
// refuses too, and with no other targets that is all the agent can know.
import { connect } from 'node:net';

export interface Endpoint {
  host: string;
  port: number;
}

export interface ConnectivityOptions {
  targets: () => readonly Endpoint[];
  /** Per target connect timeout. */
  timeoutMs: number;
  /** A verdict younger than this is reused, so a burst of failures costs one probe. */
  cacheMs: number;
  monotonic: () => number;
}

export interface Connectivity {
  /** Probes the targets (or reuses a fresh verdict); true when any is reachable. */
  probe(): Promise<boolean>;
  /** Forgets the cached verdict, e.g. after the server answered. */
  invalidate(): void;
}

export function endpointOf(url: string): Endpoint {
  const u = new URL(url);
  const port = u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port };
}

/** Parses "host:port" (IPv6 as "[::1]:443"); undefined when it is not one. */
export function parseEndpoint(text: string): Endpoint | undefined {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(text.trim());
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535 || match[1] === undefined) return undefined;
  return { host: match[1], port };
}

export function tcpReachable(target: Endpoint, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: target.host, port: target.port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function createConnectivity(options: ConnectivityOptions): Connectivity {
  let verdict: { online: boolean; at: number } | undefined;
  let inFlight: Promise<boolean> | undefined;

  async function probeAll(): Promise<boolean> {
    const targets = options.targets();
    // Any one reachable answers the question; the others need not be waited for.
    const online = await new Promise<boolean>((resolve) => {
      let pending = targets.length;
      if (pending === 0) resolve(false);
      for (const target of targets) {
        void tcpReachable(target, options.timeoutMs).then((ok) => {
          pending--;
          if (ok) resolve(true);
          else if (pending === 0) resolve(false);
        });
      }
    });
    verdict = { online, at: options.monotonic() };
    return online;
  }

  return {
    probe() {
      if (verdict !== undefined && options.monotonic() - verdict.at < options.cacheMs) return Promise.resolve(verdict.online);
      inFlight ??= probeAll().finally(() => (inFlight = undefined));
      return inFlight;
    },
    invalidate() {
      verdict = undefined;
    },
  };
}
