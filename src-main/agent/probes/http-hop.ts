// One request on one brand-new connection. Never the agent's API client or a shared pool: the
// connection is dialled here for this hop alone (connect and TLS failures are seen on every run)
// and no way exists for the API key or another check's state to reach a target.
//
// The request is written as Node's HTTP/1.1 client writes it (Host first, the check's headers,
// `Connection: close`, the body's length) and the answer is read with Node's own parser,
// llhttp (http-response.ts): Node's client around that parser cost more than the whole
// loopback exchange (llhttp.ts has the figures). undici's client, the agent's API client, is no
// lighter: it destroys every `Connection: close` socket with an error whose stack Node formats
// (~18 % of the agent's CPU at 1,000 runs a second, issue 14).
import type { Socket } from 'node:net';
import { bareHost, portOf } from '../base/url-parts.ts';
import { connectTraced } from './connection.ts';
import type { ConnectionTrace } from './trace.ts';
import { probeDefaults } from './defaults.ts';
import { hasHeader, type RequestPlan } from './http-request.ts';
import { ResponseReader, type ResponseHead, type TakeChunk } from './http-response.ts';
import type { Run } from './run.ts';

export interface Hop extends ResponseHead {
  /** Feeds the body to `take` until it says enough or the body ends. */
  feed(take: TakeChunk): Promise<void>;
  /** The body's chunks as they arrive, for decoding at the reader's pace. */
  chunks(): AsyncIterable<Buffer>;
  /** Whether the whole message arrived: false once the body ended before its declared end. */
  complete(): boolean;
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
  const secure = url.protocol === 'https:';
  const hostname = bareHost(url.hostname);
  const socket = await connectTraced(run, trace, hostname, portOf(url), secure, insecure, url.hostname);
  const reader = new ResponseReader(socket, probeDefaults.maxHeaderBytes, run.now);
  // The run's deadline (or its caller stopping) ends the connection, and with it the wait for
  // the answer or the body being read, which report it; run.reason() then names the cause.
  const unwatch = run.onStop((reason) => socket.destroy(reason));
  writeRequest(socket, plan, url);
  let head: ResponseHead;
  try {
    head = await reader.head;
  } catch (err) {
    unwatch();
    reader.close();
    throw err;
  } finally {
    // An answer that came but could not be read is an answer too: its first byte counts.
    trace.firstByteAt ??= reader.firstByteAt;
  }
  return new OpenHop(head, reader, unwatch);
}

/**
 * A hop whose head arrived: the head's facts as fields and the reader behind it, one object a
 * hop rather than a copy of the head and a closure for each method (issue 26).
 */
class OpenHop implements Hop {
  readonly status: number;
  readonly location: string | undefined;
  readonly contentEncoding: string | undefined;
  readonly contentType: string | undefined;
  readonly setCookie: string[] | undefined;
  readonly contentLength: number | undefined;
  readonly headersAt: number;
  readonly #reader: ResponseReader;
  readonly #unwatch: () => void;

  constructor(head: ResponseHead, reader: ResponseReader, unwatch: () => void) {
    this.status = head.status;
    this.location = head.location;
    this.contentEncoding = head.contentEncoding;
    this.contentType = head.contentType;
    this.setCookie = head.setCookie;
    this.contentLength = head.contentLength;
    this.headersAt = reader.headersAt;
    this.#reader = reader;
    this.#unwatch = unwatch;
  }

  feed(take: TakeChunk): Promise<void> {
    return this.#reader.feed(take);
  }

  chunks(): AsyncIterable<Buffer> {
    return this.#reader.chunks();
  }

  complete(): boolean {
    return this.#reader.complete();
  }

  close(): Promise<void> {
    this.#unwatch();
    this.#reader.close();
    return Promise.resolve();
  }
}

/**
 * The request as Node's client writes it with no agent: the request line, Host, the check's
 * header lines (names and values checked by planRequest, sent as Latin-1), `Connection: close`
 * and the body's length unless the check set them, then the body in UTF-8. Without a body the
 * head goes as text, which the socket encodes itself (no buffer made for it here).
 */
function writeRequest(socket: Socket, plan: RequestPlan, url: URL): void {
  let head = `${plan.method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
  // Host first (RFC 9110 §7.2) unless the check sets its own.
  if (!hasHeader(plan.headers, 'host')) head += `Host: ${url.host}\r\n`;
  for (const name in plan.headers) head += `${name}: ${plan.headers[name]}\r\n`;
  if (!hasHeader(plan.headers, 'connection')) head += 'Connection: close\r\n';
  if (plan.body === undefined) {
    socket.write(`${head}\r\n`, 'latin1');
    return;
  }
  const body = Buffer.from(plan.body, 'utf8');
  if (!hasHeader(plan.headers, 'content-length')) head += `Content-Length: ${body.length}\r\n`;
  socket.write(Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]));
}
