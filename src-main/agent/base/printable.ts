// Text from a check target (response samples, errors, banners) may hold terminal escape
// sequences and bidirectional overrides: printed raw, a hostile target could rewrite the user's
// terminal, forge log lines, or make "‮gnp.exe" read as "exe.png". Such characters are shown as
// visible escapes (\x1b, \u202e), never dropped silently: the reader sees that they were there.

/** C0 controls, DEL and C1 controls (U+009B is a one-character CSI on some terminals). */
const controls = /\p{Cc}|[\u202a-\u202e\u2066-\u2069]/gu;

/**
 * What a stored sample or error may not hold: the same, except tab, newline and carriage return,
 * which keep a multi-line sample readable. Bidi embeddings, overrides and isolates (U+202A–202E,
 * U+2066–2069) reorder the text around them.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const unsafeInText = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The visible escape for one unsafe character: \n, \x1b, \x9b, \u202e. */
export function visibleEscape(c: string): string {
  const code = c.charCodeAt(0);
  return (
    named[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
  );
}

/** The text with every control and bidi-override character replaced by a visible escape. */
export function printable(text: string): string {
  return text.replace(controls, visibleEscape);
}

/**
 * For a JSON log line already serialised: JSON escapes C0 controls itself but leaves DEL, C1
 * controls and bidi overrides raw; those become \u escapes, which keeps the line valid JSON.
 */
export function printableJsonLine(line: string): string {
  return line.replace(
    /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
