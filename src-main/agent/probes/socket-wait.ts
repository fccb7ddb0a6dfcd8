// Waiting on a raw socket (tcp and tls probes) without leaking listeners or outliving the run.
import type { Socket } from 'node:net';
import { bareHost } from '../base/url-parts.ts';
import type { CheckDefinition } from '../wire/schemas.ts';
import { probeDefaults } from './defaults.ts';
import { parseTarget } from './target.ts';
import type { Stoppable } from './types.ts';
import { matchRuleProblem } from './verdict.ts';

/**
 * Resolves when `socket` emits `event`; rejects on a socket error, an early close, or when
 * the run stops (the socket is then destroyed, so nothing keeps running after the run).
 */
export function waitFor(socket: Socket, event: 'connect' | 'secureConnect', run: Stoppable): Promise<void> {
  return new Promise((resolve, reject) => {
    let unwatch = (): void => undefined;
    const settle = (err?: Error): void => {
      socket.off(event, onEvent).off('error', settle).off('close', onClose);
      unwatch();
      if (err === undefined) resolve();
      else reject(err);
    };
    const onEvent = (): void => settle();
    const onClose = (): void => settle(Object.assign(new Error('socket closed'), { code: 'ECONNRESET' }));
    const onStopped = (reason: Error): void => {
      socket.destroy();
      settle(reason);
    };
    // on, not once: settle takes all three off, and once wraps each listener in two objects more.
    socket.on(event, onEvent).on('error', settle).on('close', onClose);
    // A run already stopped calls onStopped at once.
    unwatch = run.onStop(onStopped);
  });
}

/** A tcp:// or tls:// check's host:port (IPv6 brackets removed), or why the check cannot run (url, port, match mode). */
export function socketTarget(def: CheckDefinition): { host: string; port: number } | { problem: string } {
  const url = parseTarget(def.url);
  if ('problem' in url) return url;
  const endpoint = endpointOf(url);
  if ('problem' in endpoint) return endpoint;
  const problem = matchRuleProblem(def.match_mode);
  return problem === '' ? endpoint : { problem };
}

export function endpointOf(url: URL): { host: string; port: number } | { problem: string } {
  const scheme = url.protocol.slice(0, -1);
  const host = bareHost(url.hostname);
  if (host === '') return { problem: `${scheme} url needs a host` };
  if (url.port === '') return { problem: `${scheme} url needs a port` };
  const port = Number(url.port);
  if (!(port >= 1 && port <= 65535)) return { problem: `${scheme} url port must be between 1 and 65535` };
  return { host, port };
}

/**
 * Ends a connection politely (TLS close_notify, FIN) so the service sees a finished handshake
 * rather than a reset, and destroys it if the peer does not close within closeGraceMs. The peer
 * nearly always closes at once: the grace is cleared then, or it woke the agent once more a
 * second after each run (issue 26).
 */
export function closeGracefully(socket: Socket): void {
  socket.end();
  const grace = setTimeout(() => socket.destroy(), probeDefaults.closeGraceMs).unref();
  socket.once('close', () => clearTimeout(grace));
}
