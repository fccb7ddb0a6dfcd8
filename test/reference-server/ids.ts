// Identifiers and secrets. Secrets (API keys, enrollment tokens) are random, shown once, and
// stored only as a SHA-256 hash, so neither the database file nor the programmatic API can leak
// a live credential.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Lowercase Crockford base32 (no i, l, o, u), the monitor id alphabet of the wire API. */
export const crockfordAlphabet = '0123456789abcdefghjkmnpqrstvwxyz';
export const monitorIdPattern = /^[0-9a-hjkmnp-tv-z]{12}$/;

/** Twelve random Crockford characters: 60 bits. Uniqueness is enforced by the caller. */
export function randomMonitorId(): string {
  const bytes = randomBytes(12);
  let id = '';
  for (const byte of bytes) id += crockfordAlphabet.charAt(byte & 31);
  return id;
}

/** Check guids: the format is not shown on the wire, so a plain random UUID. */
export function randomGuid(): string {
  return randomUUID();
}

/** Short opaque ids for server-side records (organisations, tokens). */
export function randomRecordId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/**
 * A bearer secret. The prefix names its kind (`uak_` API key, `uet_` organisation token,
 * `upt_` platform token) so a leaked value found in a log can be recognised and revoked.
 */
export function randomSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
