// A private-definition check's target must never reach the server (wire-api.md, design.md).
// Probe errors name hosts, URLs and match strings, so before a private check's error or sample
// is stored for upload, every piece of its local definition, and any URL at all, is masked.
import type { CheckDefinition } from '../wire/schemas.ts';

export const privateMask = '[private]';

/** The strings of a local definition that could appear in a probe's error or sample. */
export function privateSecrets(def: CheckDefinition): string[] {
  const secrets = new Set<string>();
  const add = (value: string | undefined): void => {
    const v = value?.trim();
    // One- and two-character values (a port like "80") would mask ordinary words: the URL
    // pattern below already hides every URL, and host/path/query are masked in full.
    if (v !== undefined && v.length >= 3) secrets.add(v);
  };
  add(def.url);
  add(def.match_string);
  add(def.post_data);
  for (const [name, value] of Object.entries(def.headers ?? {})) {
    add(value);
    add(name);
  }
  try {
    const url = new URL(def.url);
    add(url.href);
    add(url.host);
    add(url.hostname);
    add(url.hostname.replace(/^\[|\]$/g, ''));
    add(url.port);
    if (url.pathname !== '/') add(url.pathname);
    add(url.search);
    add(decodeURIComponent(url.username));
    add(decodeURIComponent(url.password));
    for (const value of url.searchParams.values()) add(value);
  } catch {
    // An unparsable url is masked whole by add(def.url) above.
  }
  // Longest first, so a host inside a URL does not leave the rest of the URL behind.
  return [...secrets].sort((a, b) => b.length - a.length);
}

const anyUrl = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

export function redactPrivate(text: string, secrets: readonly string[]): string {
  let out = text.replace(anyUrl, privateMask);
  for (const secret of secrets) out = out.split(secret).join(privateMask);
  return out;
}
