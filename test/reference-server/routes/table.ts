// The five wire operations: path, method, credential and body cap of each. The dispatcher
// (http/dispatch.ts) applies them in one order for every endpoint: route, fault, credential
// (401/403), body size, then the handler's own validation.
import type { ReadBody } from '../http/body.ts';
import type { Reply } from '../http/reply.ts';
import type { ServerState } from '../state.ts';
import type { EnrollmentToken, MonitorRecord } from '../types.ts';
import { handleChecks } from './checks.ts';
import { handleEnroll } from './enroll.ts';
import { handlePing } from './ping.ts';
import { handleResults } from './results.ts';
import { handleStatus } from './status.ts';

export type Endpoint = 'enroll' | 'checks' | 'results' | 'status' | 'ping';
export const endpoints: readonly Endpoint[] = ['enroll', 'checks', 'results', 'status', 'ping'];

interface RequestParts {
  state: ServerState;
  query: URLSearchParams;
  body: ReadBody;
}
export interface MonitorContext extends RequestParts {
  monitor: MonitorRecord;
}
export interface TokenContext extends RequestParts {
  token: EnrollmentToken;
}

interface RouteBase {
  endpoint: Endpoint;
  method: 'GET' | 'POST';
  path: string;
  /** Bytes read at most; more is answered with `overflowStatus` without reading on. */
  bodyCap: number;
  overflowStatus: number;
}
export type Route =
  | (RouteBase & { auth: 'api-key'; handle: (ctx: MonitorContext) => Reply })
  | (RouteBase & { auth: 'enrollment-token'; handle: (ctx: TokenContext) => Reply });

/** wire-api.md Limits: 1 MiB on POST /api/results, answered with 413. */
export const resultsBodyCap = 1024 * 1024;
/**
 * The enroll and status caps are not shown on the wire; 64 KiB is far above any honest body.
 * Enroll over the cap is a 400 (wire-api.md); status follows enroll rather than inventing a 413.
 */
export const smallBodyCap = 64 * 1024;

export const routes: readonly Route[] = [
  {
    endpoint: 'enroll',
    method: 'POST',
    path: '/api/enroll',
    auth: 'enrollment-token',
    bodyCap: smallBodyCap,
    overflowStatus: 400,
    handle: handleEnroll,
  },
  {
    endpoint: 'checks',
    method: 'GET',
    path: '/api/checks',
    auth: 'api-key',
    bodyCap: smallBodyCap,
    overflowStatus: 400,
    handle: handleChecks,
  },
  {
    endpoint: 'results',
    method: 'POST',
    path: '/api/results',
    auth: 'api-key',
    bodyCap: resultsBodyCap,
    overflowStatus: 413,
    handle: handleResults,
  },
  {
    endpoint: 'status',
    method: 'POST',
    path: '/api/status',
    auth: 'api-key',
    bodyCap: smallBodyCap,
    overflowStatus: 400,
    handle: handleStatus,
  },
  {
    endpoint: 'ping',
    method: 'GET',
    path: '/api/ping',
    auth: 'api-key',
    bodyCap: smallBodyCap,
    overflowStatus: 400,
    handle: handlePing,
  },
];
