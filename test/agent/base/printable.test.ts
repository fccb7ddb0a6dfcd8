// Terminal escapes from a hostile target are shown, never executed, wherever text is printed or
// logged; what goes to the server is untouched.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, humanLine } from '../../../src-main/agent/base/log.ts';
import { printable, printableJsonLine } from '../../../src-main/agent/base/printable.ts';

const hostile = 'ok\u001b]0;owned\u0007\u001b[2J\u009b31mred\r\nfake log line\u007f';

describe('printable', () => {
  it.each([
    { name: 'plain text stays', input: 'HTTP 200, 12 ms — "ok" ✓', output: 'HTTP 200, 12 ms — "ok" ✓' },
    { name: 'ESC sequences become visible', input: '\u001b[2J', output: '\\x1b[2J' },
    { name: 'BEL, CR, LF, TAB', input: 'a\u0007b\rc\nd\te', output: 'a\\x07b\\rc\\nd\\te' },
    { name: 'DEL and C1 CSI', input: '\u007f\u009b31m', output: '\\x7f\\x9b31m' },
    {
      name: 'a whole hostile sample',
      input: hostile,
      output: 'ok\\x1b]0;owned\\x07\\x1b[2J\\x9b31mred\\r\\nfake log line\\x7f',
    },
  ])('$name', ({ input, output }) => {
    expect(printable(input)).toBe(output);
    expect(printable(input)).not.toMatch(/\p{Cc}/u);
  });

  it('keeps a JSON line valid JSON with the same value', () => {
    const line = JSON.stringify({ error: hostile });
    const shown = printableJsonLine(line);
    expect(shown).not.toMatch(/\p{Cc}/u);
    expect(JSON.parse(shown)).toEqual({ error: hostile });
  });

  it('is applied to every log line', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger(sink, 'info');
    log.warn({ error: hostile }, `check failed: ${hostile}`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/(?!\n)\p{Cc}/u);
    expect((JSON.parse(lines[0] ?? '') as { error: string }).error).toBe(hostile);
  });

  it('is applied to the readable lines a terminal gets', () => {
    const json = printableJsonLine(
      JSON.stringify({
        level: 40,
        time: Date.now(),
        msg: `check failed: ${hostile}`,
        error: hostile,
        word: '\u001b[2J',
      }),
    );
    const line = humanLine(json);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/\p{Cc}/u);
    expect(line).toContain('check failed: ok\\x1b]0;owned');
  });

  it('shows bidi overrides and isolates as escapes, in plain text and in JSON lines (issue 27 point 11)', () => {
    const spoof = '\u202egnp.exe \u2066x\u2069';
    expect(printable(spoof)).toBe('\\u202egnp.exe \\u2066x\\u2069');
    const line = printableJsonLine(JSON.stringify({ msg: spoof }));
    expect(line).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect((JSON.parse(line) as { msg: string }).msg).toBe(spoof);
  });
});
