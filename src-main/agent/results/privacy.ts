// Privacy of private-definition checks, decided here and nowhere else: what of such a check's
// run may leave this machine (error, response sample) and what the UI may show of it. A private
// check's target must never reach the server (wire-api.md, design.md): it sends no content at
// all (no sample; the sample stays in the local last run for the window) and an error made of
// the failure kind in generic words, never of text a target could have echoed. Masking every
// local value, in every encoding a target may echo it in, is the second line of defence for
// what is shown locally (notifications, the live window).
import type { DecidingRule, ProbeOutcome } from '../probes/types.ts';
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
    // What a target echoes of basic auth is the base64 of "user:password" (masked in its encodings).
    if (url.username !== '' || url.password !== '')
      add(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`);
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

/** Encoded forms shorter than this are not masked: too likely to hit unrelated text. */
const maskableEncodedLength = 4;

/** base64 of `bytes` as it reads inside a longer base64 text starting `offset` bytes earlier. */
function base64Inside(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  // Only the characters whose 6 bits all come from `bytes`: the neighbours decide the others.
  return encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
}

/**
 * Every form in which a target may echo `secret`: as is, URL-encoded (path, query, form; either
 * hex case by the case-blind match), and base64 at any alignment (an echoed Authorization
 * header, a base64 dump of the request). Letter case is handled by the matcher.
 */
function encodedForms(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), encodeURI(secret)]);
  forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
  const bytes = Buffer.from(secret, 'utf8');
  for (const offset of [0, 1, 2]) {
    const inside = base64Inside(bytes, offset);
    if (inside.length >= maskableEncodedLength) forms.add(inside);
  }
  forms.add(bytes.toString('base64url').replace(/=+$/, ''));
  return [...forms].filter((form) => form === secret || form.length >= maskableEncodedLength);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One case-blind pattern for every form of every maskable secret, longest first. */
function secretPattern(secrets: readonly string[]): RegExp | undefined {
  const forms = new Set<string>();
  for (const secret of secrets)
    if (secret.length >= maskableLength) for (const form of encodedForms(secret)) forms.add(form);
  if (forms.size === 0) return undefined;
  const sorted = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(sorted.join('|'), 'giu');
}

/**
 * The text with every URL and every maskable secret masked, in any letter case and in its
 * URL-encoded and base64 forms; undefined when a secret too short to mask is still in it (the
 * caller then withholds the text).
 */
export function redactPrivate(text: string, secrets: readonly string[]): string | undefined {
  let out = text.replace(anyUrl, privateMask);
  const pattern = secretPattern(secrets);
  if (pattern !== undefined) out = out.replace(pattern, privateMask);
  const folded = out.toLowerCase();
  return secrets.some((secret) => secret.length < maskableLength && folded.includes(secret.toLowerCase()))
    ? undefined
    : out;
}

/** A private check's failure, in words that name its kind and nothing a target sent. */
const privateFailure: Readonly<Record<DecidingRule, (status: number) => string>> = {
  'all-rules': () => 'the check failed',
  status: (status) =>
    status > 0 ? `the target answered HTTP ${status}, a status the check does not accept` : 'unexpected status',
  match: () => 'the answer does not satisfy the check’s match rule',
  'response-time': () => 'the answer came slower than the check allows',
  certificate: () => 'the TLS certificate does not satisfy the check',
  inverted: () => 'the check’s rules passed and invert_result turns that into a failure',
  connection: () => 'the connection to the target failed',
  timeout: () => 'the target did not answer in time',
  redirect: () => 'a redirect the check does not follow',
  body: () => 'the answer could not be read',
  'egress-policy': () => 'the target is refused by this monitor’s egress policy',
  definition: () => 'the check’s local definition is unusable',
  cancelled: () => 'the run was cancelled',
};

/**
 * What of a run may be sent to the server: everything for a normal check; for a private one no
 * content at all (no sample, whatever its kind) and an error made only of the failure kind.
 */
export function sentDetail(
  outcome: Pick<ProbeOutcome, 'error' | 'responseSample' | 'decidedBy' | 'httpStatus'>,
  secrets: readonly string[] | undefined,
): { error: string; sample: string } {
  if (secrets === undefined) return { error: outcome.error, sample: outcome.responseSample };
  return { error: outcome.error === '' ? '' : privateFailure[outcome.decidedBy](outcome.httpStatus), sample: '' };
}

/**
 * A private check's error as notifications and the live UI show it: masked in every encoding
 * (a notification may be seen by anyone near the screen), withheld when a value too short to
 * mask is in it. The local history keeps the real reason, shown only in the check's own detail,
 * because the user needs it to fix the check.
 */
export function shownError(error: string, secrets: readonly string[] | undefined): string {
  if (secrets === undefined || error === '') return error;
  return redactPrivate(error, secrets) ?? privateWithheldError;
}

/**
 * A last result read from the store, as a window row (read/last-runs.ts, before this start) and
 * `status --json` show it: the history keeps the real reason, never masked, and the values it
 * would be masked against may have changed since. A private check's is not shown; its recent
 * runs in its own detail have it.
 */
export const privateEarlierError =
  'the last run failed; its reason may name part of the private definition, so it is shown only in the check’s recent runs in the window';

export const shownEarlierError = (error: string, privateCheck: boolean): string =>
  privateCheck && error !== '' ? privateEarlierError : error;

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
