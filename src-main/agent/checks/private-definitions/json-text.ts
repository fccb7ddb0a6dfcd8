// JSON parsing for a hand-edited file that holds secrets. JSON.parse's own message can quote the
// text around the mistake (V8: `Unexpected token 'x', "...snippet..." is not valid JSON`), which
// could put a password or header value into a log line or the UI. So the message shown is built
// here: a line and column found by a small scanner, and a reason that never quotes the file.

export type JsonOutcome = { ok: true; value: unknown } | { ok: false; message: string };

const fixHint = 'fix the file and it reloads by itself';

export function parseJsonText(text: string): JsonOutcome {
  // Notepad and some other editors start a UTF-8 file with a byte order mark; JSON.parse refuses it.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    const found = locateJsonError(body);
    const where = found === undefined ? '' : ` at line ${found.line} column ${found.column}: ${found.reason}`;
    return { ok: false, message: `not valid JSON${where} — ${fixHint}` };
  }
}

export interface JsonErrorLocation {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units like most editors' column display for plain text. */
  column: number;
  reason: string;
}

const endReason = 'the file ends too early (is it only half saved?)';

/**
 * Where the first JSON syntax error in `text` is, or undefined when the scanner finds none (it
 * only runs after JSON.parse failed, so that means the two disagree and no place is named).
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  let pos = 0;
  const atEnd = () => pos >= text.length;
  const skipSpace = () => {
    while (!atEnd() && ' \t\n\r'.includes(text.charAt(pos))) pos++;
  };
  const expect = (reason: string) => (atEnd() ? endReason : reason);
  /** Steps over a closing character; the construct it ends is fine. */
  const close = (): undefined => {
    pos++;
    return undefined;
  };

  /** Steps over a ',' and names it when `closing` follows: a common slip worth its own words. */
  function trailingComma(closing: string): string | undefined {
    const comma = pos;
    pos++;
    skipSpace();
    if (text.charAt(pos) !== closing) return undefined;
    pos = comma;
    return `a trailing comma before ${closing} is not allowed in JSON`;
  }

  function value(): string | undefined {
    skipSpace();
    if (atEnd()) return endReason;
    const c = text.charAt(pos);
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, pos)) {
        pos += literal.length;
        return undefined;
      }
    }
    return 'a value was expected here (text needs double quotes; true, false and null are lowercase)';
  }

  function object(): string | undefined {
    pos++;
    skipSpace();
    if (text.charAt(pos) === '}') return close();
    for (;;) {
      skipSpace();
      if (text.charAt(pos) !== '"') return expect('a property name in double quotes was expected');
      const bad = string();
      if (bad !== undefined) return bad;
      skipSpace();
      if (text.charAt(pos) !== ':') return expect("':' was expected after the property name");
      pos++;
      const badValue = value();
      if (badValue !== undefined) return badValue;
      const after = separator('}', 'property value');
      if (after !== undefined) return after.end;
    }
  }

  function array(): string | undefined {
    pos++;
    skipSpace();
    if (text.charAt(pos) === ']') return close();
    for (;;) {
      const bad = value();
      if (bad !== undefined) return bad;
      const after = separator(']', 'array element');
      if (after !== undefined) return after.end;
    }
  }

  /** After a member or an element: the closer ends the container (with its result), a comma goes on (undefined). */
  function separator(closer: '}' | ']', what: string): { end: string | undefined } | undefined {
    skipSpace();
    if (text.charAt(pos) === closer) return { end: close() };
    if (text.charAt(pos) !== ',') return { end: expect(`',' or '${closer}' was expected after the ${what}`) };
    const badComma = trailingComma(closer);
    return badComma === undefined ? undefined : { end: badComma };
  }

  function string(): string | undefined {
    const start = pos;
    pos++;
    while (!atEnd()) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) return close();
      if (c < 0x20) return 'a line break or control character inside a string; write it as an escape such as \\n';
      if (c === 0x5c) {
        const escaped = text.charAt(pos + 1);
        if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) pos += 6;
        else if (escaped !== '' && '"\\/bfnrt'.includes(escaped)) pos += 2;
        else return 'a backslash in a string starts an escape that JSON does not know; write \\\\ for a backslash';
        continue;
      }
      pos++;
    }
    // Naming where the string starts is what helps: its end is wherever the file ends.
    pos = start;
    return 'this string is never closed with a double quote';
  }

  function number(): string | undefined {
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = pos;
    if (!match.test(text)) return 'a number was expected here';
    pos = match.lastIndex;
    return undefined;
  }

  let reason: string | undefined;
  try {
    reason = value();
    if (reason === undefined) {
      skipSpace();
      if (!atEnd()) reason = 'there is more text after the end of the JSON value';
    }
  } catch {
    // Only a stack overflow on absurdly deep nesting gets here; then no place is named.
    return undefined;
  }
  if (reason === undefined) return undefined;
  const before = text.slice(0, pos);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: pos - lineStart + 1, reason };
}
