// Typed client for the five wire operations. It owns its own connection pool, separate from
// the probes', so the API key can never travel to a check target.
import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { kindForStatus, networkError, type ApiError, type ApiOutcome } from './api-error.ts';
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
  /** Answers larger than this are refused as invalid (a hostile or broken server). */
  maxAnswerBytes?: number;
}

const defaults = {
  // A slow server must not hold a sync or an upload forever; 30 s is generous for 500 results.
  timeoutMs: 30_000,
  // Thousands of checks at ~1 KiB each fit with room to spare; more means something is wrong.
  maxAnswerBytes: 32 * 1024 * 1024,
};

export interface ApiClient {
  enroll(token: string, body: EnrollRequest, signal?: AbortSignal): Promise<ApiOutcome<EnrollResponse>>;
  checks(apiKey: string, since: string | undefined, signal?: AbortSignal): Promise<ApiOutcome<ChecksResponse>>;
  /** body is the ResultsRequest JSON text, already cut under the wire limits by the uploader. */
  results(apiKey: string, body: string, signal?: AbortSignal): Promise<ApiOutcome<ResultsResponse>>;
  status(apiKey: string, body: MonitorStatus, signal?: AbortSignal): Promise<ApiOutcome<OkResponse>>;
  ping(apiKey: string, signal?: AbortSignal): Promise<ApiOutcome<OkResponse>>;
  close(): Promise<void>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
  const maxAnswerBytes = options.maxAnswerBytes ?? defaults.maxAnswerBytes;
  const base = options.baseUrl.replace(/\/+$/, '');
  const dispatcher: Dispatcher = new Agent({ connections: 4, pipelining: 1 });

  async function call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    bearer: string,
    body: string | undefined,
    schema: S,
    signal: AbortSignal | undefined,
  ): Promise<ApiOutcome<z.infer<S>>> {
    const url = base + path;
    const target = `${method} ${new URL(url).origin}${path.split('?')[0] ?? ''}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
    let answer: Dispatcher.ResponseData;
    try {
      answer = await request(url, {
        dispatcher,
        method,
        signal: combined,
        headers: {
          authorization: `Bearer ${bearer}`,
          'user-agent': options.userAgent,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
      });
    } catch (error) {
      return { ok: false, error: networkError(error, target, timeout.aborted, signal?.aborted === true) };
    }
    let text: string;
    try {
      text = await readBounded(answer.body, maxAnswerBytes);
    } catch (error) {
      if (error instanceof AnswerTooLarge) {
        return fail({ kind: 'invalid-answer', status: answer.statusCode, message: `${target}: answer larger than ${maxAnswerBytes} bytes` });
      }
      return { ok: false, error: networkError(error, target, timeout.aborted, signal?.aborted === true) };
    }
    if (answer.statusCode !== 200) return fail(statusError(answer.statusCode, text, target));
    return parseAnswer(text, schema, target);
  }

  return {
    enroll: (token, body, signal) => call('POST', '/api/enroll', token, JSON.stringify(body), enrollResponseSchema, signal),
    checks: (apiKey, since, signal) =>
      call('GET', since === undefined ? '/api/checks' : `/api/checks?since=${encodeURIComponent(since)}`, apiKey, undefined, checksResponseSchema, signal),
    results: (apiKey, body, signal) => call('POST', '/api/results', apiKey, body, resultsResponseSchema, signal),
    status: (apiKey, body, signal) => call('POST', '/api/status', apiKey, JSON.stringify(body), okResponseSchema, signal),
    ping: (apiKey, signal) => call('GET', '/api/ping', apiKey, undefined, okResponseSchema, signal),
    close: () => dispatcher.close(),
  };
}

const fail = (error: ApiError): { ok: false; error: ApiError } => ({ ok: false, error });

class AnswerTooLarge extends Error {}

async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new AnswerTooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The server's reason is the first line of its plain-text body, kept short for one-line display. */
export function serverReason(text: string): string | undefined {
  const line = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (line === '') return undefined;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function statusError(status: number, text: string, target: string): ApiError {
  const reason = serverReason(text);
  const kind = kindForStatus(status);
  const said = reason === undefined ? '' : `: ${reason}`;
  if (kind === 'invalid-answer') {
    return { kind, status, message: `${target} answered ${status}, not 200 (is the server URL right?)` };
  }
  return { kind, status, ...(reason === undefined ? {} : { reason }), message: `${target} answered ${status}${said}` };
}

function parseAnswer<S extends z.ZodType>(text: string, schema: S, target: string): ApiOutcome<z.infer<S>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail({ kind: 'invalid-answer', status: 200, message: `${target} answered 200 with a body that is not JSON` });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.join('.');
    return fail({
      kind: 'invalid-answer',
      status: 200,
      message: `${target} answered 200 with an unexpected body (${where}: ${issue?.message ?? 'invalid'})`,
    });
  }
  return { ok: true, value: parsed.data };
}
