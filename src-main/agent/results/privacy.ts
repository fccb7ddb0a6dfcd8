// Privacy of private-definition checks, decided here and nowhere else: what of such a check's
// run may leave this machine (error, response sample) and what the UI may show of it. A private
// check's target must never reach the server (wire-api.md, design.md): every value of its local
// definition is masked out of what is sent, and a sample that describes the target itself (a tcp
// banner, a tls certificate summary) is not sent at all.
import type { ProbeOutcome, SampleKind } from '../probes/types.ts';
import type { CheckDefinition } from '../wire/schemas.ts';

export const privateMask = '[private]';

/** Sent instead of an error that still holds a value too short to mask without wrecking it. */
export const privateWithheldError =
  'the check failed; its reason names part of the private definition, so it is kept on the monitor machine';

/** Values shorter than this are not masked inside text ("OK" would hit every "LOOKUP"). */
const maskableLength = 3;

/** Every string of a local definition that could appear in a probe's error or sample, longest first. */
export function privateSecrets(def: CheckDefinition): string[] {
  const secrets = new Set<string>();
  const add = (value: string | undefined): void => {
    const v = value?.trim();
    if (v !== undefined && v !== '') secrets.add(v);
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

/**
 * The text with every URL and every maskable secret masked; undefined when a secret too short
 * to mask is still in it (the caller then withholds the text).
 */
export function redactPrivate(text: string, secrets: readonly string[]): string | undefined {
  let out = text.replace(anyUrl, privateMask);
  for (const secret of secrets) if (secret.length >= maskableLength) out = out.split(secret).join(privateMask);
  return secrets.some((secret) => secret.length < maskableLength && out.includes(secret)) ? undefined : out;
}

/** Samples of these kinds describe the target itself: never sent for a private check. */
const targetDescribing: ReadonlySet<SampleKind | undefined> = new Set<SampleKind | undefined>([
  'banner',
  'certificate',
  undefined,
]);

/** What of a run may be sent to the server: everything for a normal check, masked for a private one. */
export function sentDetail(
  outcome: Pick<ProbeOutcome, 'error' | 'responseSample' | 'sampleKind'>,
  secrets: readonly string[] | undefined,
): { error: string; sample: string } {
  if (secrets === undefined) return { error: outcome.error, sample: outcome.responseSample };
  const error = outcome.error === '' ? '' : (redactPrivate(outcome.error, secrets) ?? privateWithheldError);
  const sample = targetDescribing.has(outcome.sampleKind) ? '' : (redactPrivate(outcome.responseSample, secrets) ?? '');
  return { error, sample };
}

/**
 * A private check's error as notifications and the live UI show it: masked like what is sent
 * (a notification may be seen by anyone near the screen). The local history keeps the real
 * reason, shown only in the check's own detail, because the user needs it to fix the check.
 */
export function shownError(error: string, secrets: readonly string[] | undefined): string {
  return secrets === undefined ? error : sentDetail({ error, responseSample: '', sampleKind: 'body' }, secrets).error;
}

/**
 * The response sample as the window's run explanation shows it (kept in memory on this machine
 * only): whole for a normal check; for a private check masked like what is sent, or withheld
 * when masking cannot make it safe (a secret too short to mask still in it).
 */
export function shownSample(
  outcome: Pick<ProbeOutcome, 'responseSample'>,
  secrets: readonly string[] | undefined,
): { sample: string } | { withheld: true } {
  if (secrets === undefined || outcome.responseSample === '') return { sample: outcome.responseSample };
  const masked = redactPrivate(outcome.responseSample, secrets);
  return masked === undefined ? { withheld: true } : { sample: masked };
}
