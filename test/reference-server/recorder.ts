// Every request the server saw, newest last, so a test can scan all an agent sent (for example
// to prove a secret never reached the server). Bounded in count and in body bytes so a long e2e
// run cannot exhaust memory; the oldest entries go first.
import type { IncomingHttpHeaders } from 'node:http';
import type { Endpoint } from './routes/table.ts';

export interface RecordedRequest {
  /** Increases by one per request over the server's life (survives clearRequests). */
  seq: number;
  /** When the request arrived, by the server's clock (ISO 8601). */
  at: string;
  method: string;
  /** Path without the query string, e.g. `/api/checks`. */
  path: string;
  /** Raw query string without the leading `?` ('' when none). */
  query: string;
  headers: IncomingHttpHeaders;
  /** Body bytes as UTF-8 text; only what was read (an oversized body is cut at its cap). */
  body: string;
  /** Whether the whole body was read. */
  bodyComplete: boolean;
  /** The endpoint the path matched, if any. */
  endpoint: Endpoint | null;
  /** Status answered; null when the server sent no answer (reset or hang fault, client gone). */
  status: number | null;
  /** The fault that shaped the answer, if one did. */
  fault: string | null;
}

export interface RecorderLimits {
  maxRequests: number;
  maxBodyBytes: number;
}

export const defaultRecorderLimits: RecorderLimits = { maxRequests: 10_000, maxBodyBytes: 64 * 1024 * 1024 };

export interface Recorder {
  add(request: Omit<RecordedRequest, 'seq'>): RecordedRequest;
  list(): RecordedRequest[];
  clear(): void;
}

export function createRecorder(limits: RecorderLimits = defaultRecorderLimits): Recorder {
  let entries: RecordedRequest[] = [];
  let bodyBytes = 0;
  let seq = 0;
  return {
    add(request) {
      const entry = { seq: ++seq, ...request };
      entries.push(entry);
      bodyBytes += entry.body.length;
      while (entries.length > limits.maxRequests || (bodyBytes > limits.maxBodyBytes && entries.length > 1)) {
        const dropped = entries.shift();
        bodyBytes -= dropped?.body.length ?? 0;
      }
      return entry;
    },
    list: () => [...entries],
    clear() {
      entries = [];
      bodyBytes = 0;
    },
  };
}
