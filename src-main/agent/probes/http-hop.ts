// One request on one brand-new connection. Never the agent's API client or a shared pool: a
// dispatcher of its own per hop means no keep-alive reuse (connect and TLS failures are seen on
// every run) and no way for the API key or another check's state to reach a target.
import type { Readable } from 'node:stream';
import { Client } from 'undici';
import type { Dispatcher } from 'undici';
import { tracingConnector } from './connector.ts';
import type { ConnectionTrace } from './trace.ts';
import { probeDefaults } from './defaults.ts';
import type { RequestPlan } from './http-request.ts';
import type { Run } from './run.ts';

export interface Hop {
  status: number;
  /** The Location header, when there is exactly one usable value. */
  location: string | undefined;
  /** Content-Encoding and Content-Type, for decoding the body as a browser would. */
  contentEncoding: string | string[] | undefined;
  contentType: string | string[] | undefined;
  body: Dispatcher.ResponseData['body'];
  /** Run-clock time the response headers were complete. */
  headersAt: number;
  /** Ends the connection, whatever is left of the body. */
  close(): Promise<void>;
}

/**
 * Why every hop's body and client are ended: one error made once. Ending them without one makes
 * undici build a ClientDestroyedError per run (and Node format its stack trace when it destroys
 * the socket with it): ~3% of the agent's CPU at 1,000 runs a second, for an end nobody reads.
 */
const hopFinished = new Error('probe hop finished');

/**
 * Feeds the body's chunks to `take` until it says enough or the body ends. Stopping early leaves
 * the stream for close() to end: breaking out of `for await` would destroy it with a new
 * AbortError (stack formatted) even when the whole body had already arrived, and the async
 * iterator's promises cost more than the loopback answer they read.
 */
export function feedBody(body: Readable, take: (chunk: Buffer) => boolean): Promise<void> {
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

export async function sendHop(
  run: Run,
  url: URL,
  plan: RequestPlan,
  trace: ConnectionTrace,
  insecure: boolean,
): Promise<Hop> {
  const client = new Client(url.origin, {
    pipelining: 0, // no keep-alive: the connection ends with this request
    allowH2: false,
    maxHeaderSize: probeDefaults.maxHeaderBytes,
    // The run's deadline (an AbortSignal) bounds everything; undici's own idle timers would
    // only add a second, differently worded timeout.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: tracingConnector({ run, trace, insecure, host: url.hostname }),
  });
  try {
    const response = await client.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: plan.method,
      headers: plan.headers,
      body: plan.body ?? null,
      signal: run.signal,
    });
    const headersAt = run.now();
    // Abandoning a body (enough read, redirect, deadline) makes undici emit an abort error on
    // it; that is the intended end here, and unlistened it would crash the process.
    response.body.on('error', () => undefined);
    const location = response.headers.location;
    return {
      status: response.statusCode,
      location: typeof location === 'string' ? location : undefined,
      contentEncoding: response.headers['content-encoding'],
      contentType: response.headers['content-type'],
      body: response.body,
      headersAt,
      close: async () => {
        response.body.destroy(hopFinished);
        await client.destroy(hopFinished);
      },
    };
  } catch (err) {
    await client.destroy(hopFinished);
    throw err;
  }
}
