// Helpers for tests that talk to a reference server over real HTTP (fetch, no mocks).
import type { ReferenceServer } from './index.ts';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <auth>`. */
  auth?: string;
  /** Raw Authorization header value (wins over `auth`). */
  authorization?: string;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const authorization = options.authorization ?? (options.auth === undefined ? undefined : `Bearer ${options.auth}`);
  if (authorization !== undefined) headers.authorization = authorization;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method, headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Parses a 200 answer's JSON, failing loudly with the status and body otherwise. */
export function ok(answer: Answer): unknown {
  if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text);
}

/** The item at `index`, failing the test when there is none. */
export function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`expected an item at index ${index}, got ${items.length} items`);
  return item;
}

export const profile = { name: 'office-pc', region: 'eu-west', country: 'DE', city: 'Berlin' };

export interface Enrolled {
  apiKey: string;
  monitorId: string;
}

/** Enrolls over HTTP with `token` (org or platform); `id` reclaims. */
export async function enroll(server: ReferenceServer, token: string, id?: string): Promise<Enrolled> {
  const answer = await call(server.url, 'POST', '/api/enroll', { auth: token, body: { ...profile, id } });
  const body = ok(answer) as { api_key: string; monitor_id: string };
  return { apiKey: body.api_key, monitorId: body.monitor_id };
}

export interface ManualClock {
  now: () => Date;
  advance(ms: number): void;
  set(date: Date): void;
}

/** A clock that moves only when told to. */
export function manualClock(start = new Date('2026-11-21T10:29:50.000Z')): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(date) {
      current = date.getTime();
    },
  };
}

/** A server with one organisation and an org token, the usual starting point of a test. */
export function withOrg(server: ReferenceServer): { orgId: string; token: string } {
  const org = server.admin.createOrganization('Acme');
  return { orgId: org.id, token: server.admin.mintOrgToken(org.id).token };
}

/** A wire Result with sensible defaults. */
export function result(checkGuid: string, ranAt: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    check_guid: checkGuid,
    monitor_id: 'whatever-the-agent-says',
    ran_at: ranAt,
    success: true,
    http_status: 200,
    latency_ms: 12,
    ...extra,
  };
}
