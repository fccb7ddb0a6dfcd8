// One request on one brand-new connection. Never the agent's API client or a shared pool: a
// dispatcher of its own per hop means no keep-alive reuse (connect and TLS failures are seen on
// every run) and no way for the API key or another check's state to reach a target.
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
        response.body.destroy();
        await client.destroy();
      },
    };
  } catch (err) {
    await client.destroy();
    throw err;
  }
}
