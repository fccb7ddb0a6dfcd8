// Turns target-controlled text into something safe to store and show: valid Unicode, no
// control characters that would corrupt a terminal, log line or table cell, bounded length.

// C0 controls except tab, newline and carriage return (which keep multi-line samples
// readable), DEL, and C1 controls.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD instead of failing. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * Cleans `text` and cuts it to at most `maxChars` Unicode code points (0 or less = empty).
 * Bytes are decoded as UTF-8 with replacement; lone surrogates in strings (which cannot be
 * encoded as UTF-8 on the wire) become U+FFFD; control characters are removed.
 */
export function capDetail(text: string | Uint8Array, maxChars: number): string {
  const limit = Math.floor(maxChars);
  if (!(limit > 0)) return '';
  const raw = typeof text === 'string' ? text : decodeUtf8(text);
  const clean = raw.toWellFormed().replace(controlChars, '');
  return cutCodePoints(clean, limit);
}

/** At most `limit` code points of `text`, never splitting a surrogate pair. */
function cutCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let units = 0;
  for (let points = 0; points < limit && units < text.length; points++) {
    const cp = text.codePointAt(units) ?? 0;
    units += cp > 0xffff ? 2 : 1;
  }
  return text.slice(0, units);
}
