// What an http(s) check sends, decided before any connection: method, body, headers, and the
// basic-auth credentials carried in the URL. Pure, so every rule is tested without sockets.
import type { CheckDefinition } from '../wire/schemas.ts';
import { probeDefaults } from './defaults.ts';

export interface RequestPlan {
  method: 'GET' | 'POST';
  body: string | undefined;
  /** Header name as the user wrote it → value. */
  headers: Record<string, string>;
}

// RFC 9110 token characters; anything else would be refused by the HTTP client with a vaguer message.
const headerNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// eslint-disable-next-line no-control-regex -- line breaks and NUL would split or end the header
const badHeaderValue = /[\r\n\u0000]/;
// What an HTTP/1.1 header value can carry: tab, visible ASCII, and the bytes 0x80–0xFF (sent as
// Latin-1). Other control characters and anything beyond U+00FF have no byte to be sent as.
const unsendableHeaderValue = /[^\t\u0020-\u007e\u0080-\u00ff]/;
// Headers that frame the request on the wire, which the agent does itself (one request, its
// body's own length, no upgrade): a check setting them would make the request unreadable.
const framingHeaders = new Set(['transfer-encoding', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer']);

/** Why one header cannot be sent, as data: the probe and the private-definitions file each say it in their words. */
export type HeaderFault = 'bad-name' | 'line-break' | 'unsendable' | 'framing';

/** The one header rule (issue 23): what the probe refuses, the definitions file refuses when it loads. */
export function headerFault(name: string, value: string): HeaderFault | undefined {
  if (!headerNamePattern.test(name)) return 'bad-name';
  if (badHeaderValue.test(value)) return 'line-break';
  if (unsendableHeaderValue.test(value)) return 'unsendable';
  if (framingHeaders.has(name.toLowerCase())) return 'framing';
  return undefined;
}

/** Case-insensitive lookup of a header name in a plan's headers. */
export function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase();
  // A loop rather than Object.keys().some(): asked four times a run, for nothing to keep.
  for (const h in headers) if (h.toLowerCase() === lower) return true;
  return false;
}

const faultWords = (name: string): Record<HeaderFault, string> => ({
  'bad-name': `header name ${JSON.stringify(name)} is not valid`,
  'line-break': `header ${name} has a line break or NUL in its value`,
  unsendable: `header ${name} has a character in its value that HTTP headers cannot carry`,
  framing: `header ${name} cannot be set: the agent frames each request itself`,
});

/**
 * The request a check asks for, or why it cannot be sent. More than the allowed headers fails
 * the check rather than dropping some silently. Header values are never quoted in a problem:
 * they often carry tokens.
 */
export function planRequest(def: CheckDefinition): RequestPlan | { problem: string } {
  const userHeaders = def.headers ?? {};
  const names = Object.keys(userHeaders);
  if (names.length > probeDefaults.maxHeaders) {
    return { problem: `check has ${names.length} headers, at most ${probeDefaults.maxHeaders} are allowed` };
  }
  for (const name of names) {
    const fault = headerFault(name, userHeaders[name] ?? '');
    if (fault !== undefined) return { problem: faultWords(name)[fault] };
  }
  const headers = { ...userHeaders };
  if (!hasHeader(headers, 'user-agent')) headers['user-agent'] = probeDefaults.userAgent;
  const body = def.post_data ?? '';
  if (body === '') return { method: 'GET', body: undefined, headers };
  if (!hasHeader(headers, 'content-type')) headers['content-type'] = probeDefaults.postContentType;
  return { method: 'POST', body, headers };
}

function decode(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component; // not valid percent-encoding: the user meant it literally
  }
}

/**
 * Moves basic-auth userinfo out of `url` into an Authorization header (the request is sent
 * from its parts, so userinfo would be dropped silently). A user-set Authorization header wins over the URL's credentials.
 */
export function withUrlCredentials(plan: RequestPlan, url: URL): { plan: RequestPlan; url: URL } {
  if (url.username === '' && url.password === '') return { plan, url };
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  if (hasHeader(plan.headers, 'authorization')) return { plan, url: bare };
  const token = Buffer.from(`${decode(url.username)}:${decode(url.password)}`, 'utf8').toString('base64');
  return { plan: { ...plan, headers: { ...plan.headers, authorization: `Basic ${token}` } }, url: bare };
}
