// An HTTP CONNECT tunnel through the user's proxy, for checks the user opted into the proxy.
// Every scheme goes through a tunnel (as undici's ProxyAgent does by default), so a tcp or tls
// check works the same way as an https one, and the probe still does its own TLS handshake
// and sees the target's certificate and timings.
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { bareHost, portOf } from '../base/url-parts.ts';
import { redactUrl } from './redact.ts';
import type { Run, Stoppable } from './types.ts';
import { waitFor } from './socket-wait.ts';

/** Largest CONNECT answer header block read; real proxies send a few hundred bytes. */
const maxAnswerBytes = 16 * 1024;

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
          ...(run.ca === undefined ? {} : { ca: run.ca }),
        })
      : netConnect({ host: proxyHost, port: proxyPort });
  socket.on('error', () => undefined); // reported through waitFor and readAnswer
  try {
    await waitFor(socket, proxy.protocol === 'https:' ? 'secureConnect' : 'connect', run);
  } catch (err) {
    socket.destroy();
    throw run.stopped() ? err : new ProxyUnreachableError(shown, err);
  }
  const authority = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
  if (proxy.username !== '' || proxy.password !== '') {
    const user = decodeURIComponent(proxy.username);
    const password = decodeURIComponent(proxy.password);
    lines.push(`Proxy-Authorization: Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`);
  }
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const answer = await readAnswer(socket, run, shown);
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

function readAnswer(socket: Socket, run: Stoppable, shown: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    let unwatch = (): void => undefined;
    const settle = (result: Answer | Error): void => {
      socket.off('data', onData).off('close', onClose).off('error', onError);
      unwatch();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > maxAnswerBytes) settle(new Error(`proxy ${shown} sent an oversized answer to CONNECT`));
        return;
      }
      socket.pause();
      const statusLine = buffered.subarray(0, buffered.indexOf('\r\n')).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
      if (match === null) {
        settle(new Error(`proxy ${shown} did not answer CONNECT with HTTP`));
        return;
      }
      settle({ status: Number(match[1]), statusText: match[2] ?? '', rest: buffered.subarray(end + 4) });
    };
    const onClose = (): void =>
      settle(Object.assign(new Error(`proxy ${shown} closed the connection`), { code: 'ECONNRESET' }));
    const onError = (err: Error): void => settle(err);
    const onStopped = (reason: Error): void => {
      socket.destroy();
      settle(reason);
    };
    socket.on('data', onData).once('close', onClose).once('error', onError);
    unwatch = run.onStop(onStopped);
  });
}
