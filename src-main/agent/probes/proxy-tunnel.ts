// An HTTP CONNECT tunnel through the user's proxy, for checks the user opted into the proxy.
// Every scheme goes through a tunnel (as undici's ProxyAgent does by default), so a tcp or tls
// check works the same way as an https one, and the probe still does its own TLS handshake
// and sees the target's certificate and timings.
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { bareHost, portOf } from '../base/url-parts.ts';
import { redactUrl } from './redact.ts';
import type { Run, Stoppable } from './types.ts';
import { waitFor } from './socket-wait.ts';
const { request } = process.getBuiltinModule('node:http');
const { connect: netConnect, isIP } = process.getBuiltinModule('node:net');
const { connect: tlsConnect } = process.getBuiltinModule('node:tls');

/** Largest CONNECT answer header block read; real proxies send a few hundred bytes. */
const maxHeaderSize = 16 * 1024;

/** The proxy answered but would not open the tunnel. */
export class ProxyRefusedError extends Error {
  readonly code = 'PROXY_REFUSED';
  readonly status: number;
  readonly proxy: string;

  constructor(proxy: string, status: number, statusText: string) {
    super(`proxy ${proxy} answered ${status} ${statusText}`.trim());
    this.name = 'ProxyRefusedError';
    this.proxy = proxy;
    this.status = status;
  }
}

/** The proxy itself could not be reached; `cause` says how (refused, timed out, DNS). */
export class ProxyUnreachableError extends Error {
  readonly proxy: string;

  constructor(proxy: string, cause: unknown) {
    super(`proxy ${proxy} could not be reached`, { cause });
    this.name = 'ProxyUnreachableError';
    this.proxy = proxy;
  }
}

/** The proxy URL as it may be shown: credentials masked. */
export function shownProxy(proxyUrl: string): string {
  return redactUrl(proxyUrl).replace(/\/$/, '');
}

/**
 * A socket to `host:port` through the proxy at `proxyUrl` (http or https, optional basic
 * credentials), connected and ready for the target's bytes.
 */
export async function openTunnel(run: Run, proxyUrl: string, host: string, port: number): Promise<Socket> {
  const proxy = new URL(proxyUrl);
  const shown = shownProxy(proxyUrl);
  const proxyHost = bareHost(proxy.hostname);
  const proxyPort = portOf(proxy);
  const socket =
    proxy.protocol === 'https:'
      ? tlsConnect({
          host: proxyHost,
          port: proxyPort,
          ...(isIP(proxyHost) === 0 ? { servername: proxyHost } : {}),
          secureContext: run.trust,
        })
      : netConnect({ host: proxyHost, port: proxyPort });
  socket.on('error', () => undefined); // reported through waitFor and askConnect
  try {
    await waitFor(socket, proxy.protocol === 'https:' ? 'secureConnect' : 'connect', run);
  } catch (err) {
    socket.destroy();
    throw run.stopped() ? err : new ProxyUnreachableError(shown, err);
  }
  const authority = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  // keep-alive: Node would otherwise ask the proxy to close the connection that is our tunnel.
  const headers: Record<string, string> = { host: authority, connection: 'keep-alive' };
  if (proxy.username !== '' || proxy.password !== '') {
    const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
  }
  const answer = await askConnect(socket, run, shown, authority, headers);
  if (answer.status < 200 || answer.status > 299) {
    socket.destroy();
    throw new ProxyRefusedError(shown, answer.status, answer.statusText);
  }
  if (answer.rest.length > 0) socket.unshift(answer.rest);
  return socket;
}

interface Answer {
  status: number;
  statusText: string;
  /** Bytes after the header block: the target's, already in flight. */
  rest: Buffer;
}

/** The HTTP parser's failures in words that say what the proxy did. */
function answerError(err: NodeJS.ErrnoException, shown: string): Error {
  if (err.code === 'HPE_HEADER_OVERFLOW') return new Error(`proxy ${shown} sent an oversized answer to CONNECT`);
  if (err.code?.startsWith('HPE_') === true) return new Error(`proxy ${shown} did not answer CONNECT with HTTP`);
  if (err.code !== 'ECONNRESET') return err;
  return Object.assign(new Error(`proxy ${shown} closed the connection`), { code: 'ECONNRESET' });
}

/**
 * Node's own HTTP client writes the CONNECT and reads the answer on our socket (whose connect,
 * and its timing, stay ours); any status ends the exchange with the socket handed back.
 */
async function askConnect(
  socket: Socket,
  run: Stoppable,
  shown: string,
  authority: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const req = request({ createConnection: () => socket, method: 'CONNECT', path: authority, headers, maxHeaderSize });
  req.on('error', () => undefined); // reported through once() below, or after we gave up
  // Stopping ends the socket, which ends the exchange (a plain callback: no AbortSignal per run).
  const unwatch = run.onStop(() => socket.destroy());
  req.end();
  try {
    const [res, , head] = (await once(req, 'connect')) as [IncomingMessage, Socket, Buffer];
    return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', rest: head };
  } catch (err) {
    socket.destroy();
    throw run.stopReason() ?? answerError(err as NodeJS.ErrnoException, shown);
  } finally {
    unwatch();
  }
}
