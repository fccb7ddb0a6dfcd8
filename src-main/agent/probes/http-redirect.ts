// Redirect rules for the probe's own redirect loop: a fresh connection and a decision (egress
// policy, credentials, certificate) per hop.
import type { RequestPlan } from './http-request.ts';
import { redactUrl } from './redact.ts';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * Headers that may carry credentials (Authorization, Proxy-Authorization, Cookie, X-Api-Key,
 * X-Auth-Token, ...). They go only to the origin the user configured: a redirect to another
 * origin (scheme, host or port) must not leak them to a third party.
 */
const credentialHeader = /auth|cookie|token|key|secret|session|passw|credential/i;

export type RedirectStep = { url: URL } | { problem: string } | undefined;

/** Where a response redirects to; undefined when it is not a redirect (a 3xx without Location). */
export function redirectTarget(status: number, location: string | undefined, from: URL): RedirectStep {
  if (!redirectStatuses.has(status) || location === undefined || location === '') return undefined;
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    return { problem: `redirect from ${redactUrl(from.href)} has an invalid Location` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `redirect to unsupported scheme ${url.protocol}` };
  }
  url.hash = '';
  return { url };
}

/**
 * The request for the next hop. 301/302 after a POST and every 303 become a GET without body,
 * as browsers do; 307/308 repeat the request as is. Crossing origins drops credential headers.
 */
export function redirectedPlan(plan: RequestPlan, status: number, from: URL, to: URL): RequestPlan {
  const toGet = status === 303 || ((status === 301 || status === 302) && plan.method === 'POST');
  let headers = plan.headers;
  if (toGet && plan.body !== undefined) headers = without(headers, (name) => /^content-type$/i.test(name));
  if (from.origin !== to.origin) headers = without(headers, (name) => credentialHeader.test(name));
  return toGet ? { method: 'GET', body: undefined, headers } : { ...plan, headers };
}

function without(headers: Record<string, string>, drop: (name: string) => boolean): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop(name)));
}

/**
 * Key for loop detection: the same URL with another method (POST then GET) is not a loop, and
 * userinfo does not make a URL different.
 */
export function hopKey(plan: RequestPlan, url: URL): string {
  return `${plan.method} ${url.protocol}//${url.host}${url.pathname}${url.search}`;
}

/**
 * The plan with the run's cookies for this hop added to any Cookie header the check sets itself
 * (which only its own origin receives: redirectedPlan drops it across origins).
 */
export function withCookies(plan: RequestPlan, cookies: string | undefined): RequestPlan {
  if (cookies === undefined) return plan;
  const own = Object.keys(plan.headers).find((name) => name.toLowerCase() === 'cookie');
  const headers = { ...plan.headers };
  if (own === undefined) headers.cookie = cookies;
  else headers[own] = `${headers[own] ?? ''}; ${cookies}`;
  return { ...plan, headers };
}
