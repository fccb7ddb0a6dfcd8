// Secrets a check carries (basic-auth passwords, header values) must never reach an error,
// a sample, a log line or the UI. Shared by the probes and everything that shows a check.

const mask = '***';

/**
 * `url` with its userinfo password replaced by `***` (the user name stays: it tells which
 * account is used and is not a secret by itself). Unparsable input is redacted textually.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactUnparsable(url);
  }
  if (parsed.password === '') return parsed.href;
  parsed.password = mask;
  return parsed.href;
}

/** Header names kept, every value shown as `***`. */
export function redactHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.keys(headers ?? {}).map((name) => [name, mask]));
}

// The authority runs from "//" to the next "/", "?" or "#"; like the URL parser, the last "@"
// in it ends the userinfo, so a password containing "@" is still covered.
function redactUnparsable(url: string): string {
  const start = url.indexOf('//');
  if (start < 0) return url;
  const rest = url.slice(start + 2);
  const authority = rest.split(/[/?#]/, 1)[0] ?? '';
  const at = authority.lastIndexOf('@');
  if (at < 0) return url;
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  if (colon < 0) return url;
  return `${url.slice(0, start + 2)}${userinfo.slice(0, colon)}:${mask}${rest.slice(at)}`;
}
