// Turns target-controlled text into something safe to store and show: valid Unicode, control and
// bidi-override characters as visible escapes (base/printable.ts), bounded length.
import { unsafeInText, visibleEscape } from '../base/printable.ts';

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD instead of failing. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * The first `end` UTF-16 units of `text`, holding nothing else. V8 makes a substring of 13
 * characters or more a view of the string it was cut from, so a 4 KB sample sliced from a
 * decoded chunk of a page kept the whole chunk alive (~64 KB) for as long as the sample lived:
 * in every check's last run (read/last-runs.ts) and in each run in flight (66 KB against 5.6 KB a
 * kept sample, test/agent/probes/sample-memory.int.test.ts). A real cut is copied with
 * structuredClone (a string of its own, ~1 µs for 8,192 characters); a text that fits is returned
 * as it is, since there is nothing it could hold beyond itself: most runs' bodies are shorter
 * than their sample, and copying them anyway cost two clones a run (~3 µs, ~1 % of the agent's
 * CPU at 1,000 checks in a V8 profile; one clone took the empty text a stream's end decodes).
 */
export function cutOwn(text: string, end: number): string {
  return end >= text.length ? text : structuredClone(text.slice(0, end));
}

/**
 * Cleans `text` and cuts it to at most `maxChars` Unicode code points (0 or less = empty).
 * Bytes are decoded as UTF-8 with replacement; lone surrogates in strings (which cannot be
 * encoded as UTF-8 on the wire) become U+FFFD; control characters (but tab and line breaks) and
 * bidi overrides become visible escapes, which count against the cap (this cut keeps them whole).
 */
export function capDetail(text: string | Uint8Array, maxChars: number): string {
  const limit = Math.floor(maxChars);
  if (!(limit > 0)) return '';
  const raw = (typeof text === 'string' ? text : decodeUtf8(text)).toWellFormed();
  unsafeInText.lastIndex = 0;
  if (!unsafeInText.test(raw)) return cutCodePoints(raw, limit);
  return escapedWithin(raw, limit);
}

/** At most `limit` code points of `text`, never splitting a surrogate pair. */
function cutCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let units = 0;
  for (let points = 0; points < limit && units < text.length; points++) {
    const cp = text.codePointAt(units) ?? 0;
    units += cp > 0xffff ? 2 : 1;
  }
  // What is cut is kept (a run's outcome, its last run): it must not hold the longer text.
  return cutOwn(text, units);
}

/** The text with unsafe characters escaped, up to `limit` code points, whole escapes only. */
function escapedWithin(text: string, limit: number): string {
  let out = '';
  let points = 0;
  for (const c of text) {
    unsafeInText.lastIndex = 0;
    const shown = unsafeInText.test(c) ? visibleEscape(c) : c;
    // Escapes are ASCII; any other `shown` is one code point.
    const width = shown === c ? 1 : shown.length;
    if (points + width > limit) break;
    out += shown;
    points += width;
  }
  return out;
}
