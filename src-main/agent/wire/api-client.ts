// Typed client for the five wire operations. It owns its own connection pool, separate from
// the probes', so the API key can never travel to a check target. It goes through the proxy
// chosen for the server (proxy.ts), trusts the extra CAs given for the server, and notes how far
// the server's clock (its Date header) is from ours.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { AnswerTooLarge, fail, parseAnswer, readBounded, statusError } from './api-answer.ts';
import { networkError, type ApiError, type ApiOutcome, type Route } from './api-error.ts';
import { wireLimits } from './limits.ts';
import { maskProxy, type ProxyChoice } from './proxy.ts';
import { boundedConnector, type OpeningConnector } from './connect-bound.ts';
import { verifyingConnector } from './tls-trust.ts';
import { Agent, Pool, ProxyAgent } from './undici-parts.ts';
import { trustContext } from '../base/trusted-roots.ts';
import {
  checksResponseSchema,
  enrollResponseSchema,
  okResponseSchema,
  resultsResponseSchema,
  type ChecksResponse,
  type EnrollRequest,
  type EnrollResponse,
  type MonitorStatus,
  type OkResponse,
  type ResultsResponse,
} from './schemas.ts';

export interface ApiClientOptions {
  /** The server's base address; paths such as /api/checks are appended to it. */
  baseUrl: string;
  /** Identifies the agent and its version to the server. */
  userAgent: string;
  /** Bounds one whole request, answer included. */
  timeoutMs?: number;
  /** Bounds the connect alone (to the server, or to the proxy): a silent one is unreachable sooner. */
  connectTimeoutMs?: number;
  /** Answers larger than this are refused as invalid (a hostile or broken server). */
  maxAnswerBytes?: number;
  /** The proxy for the server (proxyFor), or none: connect directly. */
  proxy?: ProxyChoice | undefined;
  /** Extra CA certificates (PEM) trusted for the server, besides the default ones. */
  ca?: string[] | undefined;
  /** Wall clock, to compare with the server's Date header. */
  now?: () => number;
}

const defaults = {
  // A slow server must not hold a sync or an upload forever; 30 s is generous for 500 results.
  timeoutMs: 30_000,
  // undici's own default: a server that does not accept within 10 s counts as unreachable.
  connectTimeoutMs: 10_000,
  // Enroll, results, status and ping answers are a few bytes; more means something is wrong. The
  // sync answer has its own, larger bound (wireLimits.syncAnswerBytes).
  maxAnswerBytes: 32 * 1024 * 1024,
};

export interface ApiClient {
  enroll(token: string, body: EnrollRequest, signal?: AbortSignal): Promise<ApiOutcome<EnrollResponse>>;
  checks(apiKey: string, since: string | undefined, signal?: AbortSignal): Promise<ApiOutcome<ChecksResponse>>;
  /** body is the ResultsRequest JSON text, already cut under the wire limits by the uploader. */
  results(apiKey: string, body: string, signal?: AbortSignal): Promise<ApiOutcome<ResultsResponse>>;
  status(apiKey: string, body: MonitorStatus, signal?: AbortSignal): Promise<ApiOutcome<OkResponse>>;
  ping(apiKey: string, signal?: AbortSignal): Promise<ApiOutcome<OkResponse>>;
  /** Server clock minus ours, in whole seconds, at the last answer that had a Date header. */
  clockSkewSec(): number | undefined;
  close(): Promise<void>;
}

/**
 * A key or token the client can put in an Authorization header: printable ASCII without spaces.
 * Anything else (a damaged key file) would make undici throw on every call, so it is refused
 * before a request is made.
 */
export const isSendableCredential = (value: string): boolean => /^[\x21-\x7e]+$/.test(value);

/** Beyond its own timeout, a call that ignored the abort is given up after this grace. */
const deadlineGraceMs = 1_000;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
  const answerLimit = (path: string): number =>
    options.maxAnswerBytes ?? (path.startsWith('/api/checks') ? wireLimits.syncAnswerBytes : defaults.maxAnswerBytes);
  const base = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const trust = trustContext(options.ca);
  // Parsed once: every call names the server by its origin (in its failure messages) and its host.
  const server = new URL(base);
  const route: Route = {
    serverHost: server.host,
    ...(options.proxy === undefined ? {} : { proxy: maskProxy(options.proxy.url) }),
  };
  // Each call's own deadline (below) bounds it whole, so undici's header and body timeouts are
  // off: armed, they keep undici's timer ticking every half second for as long as any is set.
  const timeouts = { headersTimeout: 0, bodyTimeout: 0 };
  const connectTimeoutMs = options.connectTimeoutMs ?? defaults.connectTimeoutMs;
  const dispatcher: Dispatcher =
    options.proxy === undefined
      ? new Agent({
          connections: 4,
          pipelining: 1,
          ...timeouts,
          connect: verifyingConnector({ trust, connectTimeoutMs }),
        })
      : new ProxyAgent({
          uri: options.proxy.url.href,
          connections: 4,
          pipelining: 1,
          ...timeouts,
          // Likewise for the tunnel: the connect to the proxy has the plain bound (connect-bound.ts)
          // and its CONNECT request no header timeout; the handshake through the tunnel is bounded
          // by the call's deadline.
          connectTimeout: 0,
          clientFactory: (origin: URL, opts: object) => {
            const { connect } = opts as { connect: OpeningConnector };
            return new Pool(origin, { ...opts, ...timeouts, connect: boundedConnector(connect, connectTimeoutMs) });
          },
          // Always a CONNECT tunnel, also to an http server: then a proxy's 403 or 502 can never
          // pass for the server's own answer (a 403 would read as "monitor disabled").
          proxyTunnel: true,
          requestTls: { secureContext: trust },
          proxyTls: { secureContext: trust },
        });
  let skewSec: number | undefined;

  /** Date drops the milliseconds: from its second's middle (499 ms; + 0: never -0) a clock in step reads 0, not -1. */
  function noteDate(header: string | string[] | undefined): void {
    const serverMs = Date.parse(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
    if (Number.isFinite(serverMs)) skewSec = Math.round((serverMs + 499 - now()) / 1000) + 0;
  }

  /**
   * Every call ends by its deadline, whatever the connection pool does: the abort covers the
   * request and the body, and a call that still has not settled is given up shortly after.
   */
  async function call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    bearer: string,
    body: string | undefined,
    schema: S,
    signal: AbortSignal | undefined,
  ): Promise<ApiOutcome<z.infer<S>>> {
    const target = `${method} ${server.origin}${path.split('?')[0] ?? ''}`;
    if (!isSendableCredential(bearer)) {
      return path === '/api/enroll'
        ? fail({
            kind: 'rejected',
            message: 'the enrollment token holds characters that cannot be sent; paste it again as one piece',
          })
        : fail({
            kind: 'damaged-key',
            message: 'the stored key is damaged',
            action: 'enroll this agent again, or reclaim its monitor id',
          });
    }
    // A deadline cleared when the call ends: AbortSignal.timeout cannot be, and woke the agent
    // 30 s after every call for nothing (issue 26).
    const deadline = new AbortController();
    const timeout = deadline.signal;
    const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
    const timers = [
      setTimeout(() => deadline.abort(new DOMException(`no answer in ${timeoutMs} ms`, 'TimeoutError')), timeoutMs),
    ];
    const givenUp = new Promise<ApiOutcome<never>>((resolve) => {
      timers.push(
        setTimeout(
          () => resolve(fail({ kind: 'timeout', message: `no answer from ${target} in time` })),
          timeoutMs + deadlineGraceMs,
        ),
      );
    });
    try {
      return await Promise.race([send(method, path, target, bearer, body, schema, combined, timeout, signal), givenUp]);
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
  }

  async function send<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    target: string,
    bearer: string,
    body: string | undefined,
    schema: S,
    combined: AbortSignal,
    timeout: AbortSignal,
    signal: AbortSignal | undefined,
  ): Promise<ApiOutcome<z.infer<S>>> {
    let answer: Dispatcher.ResponseData;
    try {
      const url = new URL(base + path);
      answer = await dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method,
        signal: combined,
        // A connection of its own, closed with the answer: the agent calls a few times a minute
        // at rest, and an idle kept-alive connection cost it a timer, its ticks and a close later.
        reset: true,
        headers: {
          authorization: `Bearer ${bearer}`,
          'user-agent': options.userAgent,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
      });
    } catch (error) {
      return { ok: false, error: networkError(error, target, timeout.aborted, signal?.aborted === true, route) };
    }
    noteDate(answer.headers.date);
    const maxAnswerBytes = answerLimit(path);
    let text: string;
    try {
      text = await readBounded(answer.body, maxAnswerBytes);
    } catch (error) {
      if (error instanceof AnswerTooLarge) {
        return fail({
          kind: 'invalid-answer',
          status: answer.statusCode,
          message: `${target}: answer larger than ${maxAnswerBytes} bytes`,
        });
      }
      return { ok: false, error: networkError(error, target, timeout.aborted, signal?.aborted === true, route) };
    }
    if (answer.statusCode !== 200) return fail(statusError(answer.statusCode, text, target));
    return parseAnswer(text, schema, target);
  }

  return {
    enroll: (token, body, signal) =>
      call('POST', '/api/enroll', token, JSON.stringify(body), enrollResponseSchema, signal),
    checks: (apiKey, since, signal) =>
      call(
        'GET',
        since === undefined ? '/api/checks' : `/api/checks?since=${encodeURIComponent(since)}`,
        apiKey,
        undefined,
        checksResponseSchema,
        signal,
      ),
    results: (apiKey, body, signal) => call('POST', '/api/results', apiKey, body, resultsResponseSchema, signal),
    status: (apiKey, body, signal) =>
      call('POST', '/api/status', apiKey, JSON.stringify(body), okResponseSchema, signal),
    ping: (apiKey, signal) => call('GET', '/api/ping', apiKey, undefined, okResponseSchema, signal),
    clockSkewSec: () => skewSec,
    // close() waits for calls in flight; destroy() after a moment, so a stuck call cannot hold it.
    close: () => closeWithin(dispatcher, 2_000),
  };
}

async function closeWithin(dispatcher: Dispatcher, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const closing = dispatcher.close().then(
    () => 'closed' as const,
    () => 'closed' as const,
  );
  if ((await Promise.race([closing, late])) === 'late') await dispatcher.destroy().catch(() => undefined);
  clearTimeout(timer);
}

/** A client that sends nothing: every call fails with this error (unusable network settings). */
export function failingApiClient(error: ApiError): ApiClient {
  const failed = <T>(): Promise<ApiOutcome<T>> => Promise.resolve({ ok: false, error });
  return {
    enroll: failed,
    checks: failed,
    results: failed,
    status: failed,
    ping: failed,
    clockSkewSec: () => undefined,
    close: () => Promise.resolve(),
  };
}
