// One request on one brand-new connection. Never the agent's API client or a shared pool: the
// connection is dialled here for this hop alone (connect and TLS failures are seen on every run)
// and no way exists for the API key or another check's state to reach a target.
//
// Node's own HTTP/1.1 client carries the request, over the socket connection.ts dialled. It
// sends `Connection: close` (no agent), so the target ends the connection as a browser's
// one-off request would, and it ends a finished response without building an error. undici,
// which the agent uses for its own API calls, destroys every `Connection: close` socket with a
// new InformationalError whose stack trace Node formats: measured at ~18 % of the agent's CPU at
// 1,000 runs a second (issue 14), for an error nobody reads.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { bareHost, defaultPortOf, portOf } from '../base/url-parts.ts';
import { connectTraced } from './connection.ts';
import type { ConnectionTrace } from './trace.ts';
import { probeDefaults } from './defaults.ts';
import { hasHeader, type RequestPlan } from './http-request.ts';
import type { Run } from './run.ts';
const { request } = process.getBuiltinModule('node:http');

export interface Hop {
  status: number;
  /** The Location header, when there is exactly one usable value. */
  location: string | undefined;
  /** Content-Encoding and Content-Type, for decoding the body as a browser would. */
  contentEncoding: string | undefined;
  contentType: string | undefined;
  /** Set-Cookie lines, for the run's cookie jar. */
  setCookie: string[] | undefined;
  /** The declared Content-Length, when the body has one. */
  contentLength: number | undefined;
  body: Readable;
  /** Whether the whole message arrived: false once the body ended before its declared end. */
  complete(): boolean;
  /** Run-clock time the response headers were complete. */
  headersAt: number;
  /** Ends the connection, whatever is left of the body. */
  close(): Promise<void>;
}

/**
 * Feeds the body's chunks to `take` until it says enough or the body ends. Stopping early leaves
 * the stream for close() to end: breaking out of `for await` would destroy it with a new
 * AbortError (stack formatted) even when the whole body had already arrived, and the async
 * iterator's promises cost more than the loopback answer they read.
 *
 * What has arrived is taken at once: a short answer's body usually comes in the packet of its
 * headers and is parsed before the hop is handed over, and waiting for the stream's 'readable'
 * and 'end' events to say so cost ~2.2 KB of garbage a run of the ~30 a run allocates (issue 26,
 * docs/performance.md "What a probe allocates").
 */
export function feedBody(hop: Pick<Hop, 'body' | 'complete'>, take: (chunk: Buffer) => boolean): Promise<void> {
  const { body } = hop;
  for (let chunk = body.read() as Buffer | null; chunk !== null; chunk = body.read() as Buffer | null) {
    if (take(chunk)) return Promise.resolve();
  }
  if (hop.complete() && body.readableLength === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stop = (error?: Error): void => {
      body.off('readable', pull);
      body.off('end', stop);
      body.off('error', stop);
      if (error === undefined) resolve();
      else reject(error);
    };
    function pull(): void {
      for (let chunk = body.read() as Buffer | null; chunk !== null; chunk = body.read() as Buffer | null) {
        if (take(chunk)) {
          stop();
          return;
        }
      }
    }
    body.on('readable', pull);
    body.once('end', stop);
    body.once('error', stop);
  });
}

function declaredLength(header: string | undefined): number | undefined {
  const length = header === undefined ? NaN : Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/**
 * The Location header when the response has exactly one (Node keeps only the first of several,
 * so the raw headers are counted: two different targets are no redirect to follow).
 */
function singleLocation(response: IncomingMessage): string | undefined {
  const location = response.headers.location;
  if (location === undefined) return undefined;
  let count = 0;
  for (let i = 0; i < response.rawHeaders.length; i += 2) {
    if (response.rawHeaders[i]?.toLowerCase() === 'location') count++;
  }
  return count === 1 ? location : undefined;
}

/**
 * The request's header lines, Host first (RFC 9110 §7.2) unless the check sets its own. A flat
 * list is written as given, where an object goes through a per-header setHeader and lookup in
 * Node's client; the plan's names and values were checked by planRequest.
 */
export function headerList(plan: RequestPlan, url: URL): string[] {
  const list: string[] = hasHeader(plan.headers, 'host') ? [] : ['Host', url.host];
  for (const [name, value] of Object.entries(plan.headers)) list.push(name, value);
  return list;
}

export async function sendHop(
  run: Run,
  url: URL,
  plan: RequestPlan,
  trace: ConnectionTrace,
  insecure: boolean,
): Promise<Hop> {
  const secure = url.protocol === 'https:';
  const defaultPort = defaultPortOf(url);
  const port = portOf(url);
  const hostname = bareHost(url.hostname);
  const socket = await connectTraced(run, trace, hostname, port, secure, insecure, url.hostname);
  return await new Promise<Hop>((resolve, reject) => {
    let settled = false;
    let unwatch = (): void => undefined;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      unwatch();
      socket.destroy();
      reject(err);
    };
    const stopped = run.stopReason();
    if (stopped !== undefined) {
      fail(stopped);
      return;
    }
    let req: ReturnType<typeof request>;
    try {
      req = request({
        createConnection: () => socket,
        host: hostname,
        port,
        defaultPort,
        method: plan.method,
        path: `${url.pathname}${url.search}`,
        headers: headerList(plan, url),
        maxHeaderSize: probeDefaults.maxHeaderBytes,
      });
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    // The run's deadline (or its caller stopping) ends the connection, and with it the request
    // or the body being read, which report it; run.reason() then names the cause. Not Node's
    // `signal` option: its listeners and stream hooks cost more per run than the request itself.
    unwatch = run.onStop((reason) => socket.destroy(reason));
    // After the response, a reset or the deadline also reaches the request; the body reports it.
    req.on('error', fail);
    req.once('socket', (s) => {
      s.once('data', () => (trace.firstByteAt ??= run.now()));
      // A tunnel through the user's proxy hands the socket over paused, with the target's first
      // bytes put back; Node's client reads with 'data', which does not resume a paused socket.
      if (s.isPaused()) s.resume();
    });
    req.once('response', (response) => {
      settled = true;
      const headersAt = run.now();
      // Abandoning a body (enough read, redirect, deadline) may end it with an error; that is
      // the intended end here, and unlistened it would crash the process.
      response.on('error', () => undefined);
      resolve({
        status: response.statusCode ?? 0,
        location: singleLocation(response),
        contentEncoding: response.headers['content-encoding'],
        contentType: response.headers['content-type'],
        setCookie: response.headers['set-cookie'],
        contentLength: declaredLength(response.headers['content-length']),
        body: response,
        complete: () => response.complete,
        headersAt,
        // The socket alone: a response whose message is complete then just ends, while
        // destroying the response too would build an 'aborted' and a premature-close error
        // (stack traces formatted) on every run whose body was not read to its end.
        close: () => {
          unwatch();
          socket.destroy();
          return Promise.resolve();
        },
      });
    });
    req.end(plan.body);
  });
}
