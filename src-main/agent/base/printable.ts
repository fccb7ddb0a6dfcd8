// Text from a check target (response samples, errors, banners) may hold terminal escape
// sequences: printed raw, a hostile target could rewrite the user's terminal or forge log lines.
// At every print or log boundary such characters are shown as visible escapes instead. What is
// sent to the server stays as the target produced it (apart from the wire caps).

/** C0 controls, DEL and C1 controls (U+009B is a one-character CSI on some terminals). */
const controls = /\p{Cc}/gu;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The text with every control character replaced by a visible escape (\x1b, \n, \x9b). */
export function printable(text: string): string {
  return text.replace(controls, (c) => {
    const code = c.charCodeAt(0);
    return (
      named[c] ??
      (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
    );
  });
}

/**
 * For a JSON log line already serialised: JSON escapes C0 controls itself but leaves DEL and C1
 * controls raw; those become \u escapes, which keeps the line valid JSON.
 */
export function printableJsonLine(line: string): string {
  return line.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
