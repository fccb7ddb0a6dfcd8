import { describe, expect, it } from 'vitest';
import { locateJsonError, parseJsonText } from '../../../../src-main/agent/checks/private-definitions/json-text.ts';

describe('locateJsonError', () => {
  it.each([
    {
      name: 'bare word',
      text: '{\n  "checks": [\n    {"guid": x}\n  ]\n}',
      line: 3,
      column: 14,
      says: 'a value was expected here',
    },
    {
      name: 'trailing comma in an object',
      text: '{"a": 1,\n}',
      line: 1,
      column: 8,
      says: 'a trailing comma before } is not allowed',
    },
    {
      name: 'trailing comma in an array',
      text: '[1, 2 , ]',
      line: 1,
      column: 7,
      says: 'a trailing comma before ] is not allowed',
    },
    { name: 'string never closed', text: '{"a": "sec', line: 1, column: 7, says: 'this string is never closed' },
    { name: 'empty text', text: '', line: 1, column: 1, says: 'the file ends too early' },
    { name: 'only spaces', text: '  \n ', line: 2, column: 2, says: 'the file ends too early' },
    { name: 'cut after a colon', text: '{"a":', line: 1, column: 6, says: 'the file ends too early' },
    { name: 'missing colon', text: '{"a" 1}', line: 1, column: 6, says: "':' was expected after the property name" },
    { name: 'missing comma in an array', text: '[1 2]', line: 1, column: 4, says: "',' or ']' was expected" },
    {
      name: 'missing comma in an object',
      text: '{"a": 1 "b": 2}',
      line: 1,
      column: 9,
      says: "',' or '}' was expected",
    },
    { name: 'text after the value', text: '{"a": 1} x', line: 1, column: 10, says: 'there is more text after the end' },
    {
      name: 'single quotes',
      text: "{'a': 1}",
      line: 1,
      column: 2,
      says: 'a property name in double quotes was expected',
    },
    {
      name: 'line break inside a string',
      text: '["a\nb"]',
      line: 1,
      column: 4,
      says: 'a line break or control character inside a string',
    },
    { name: 'unknown escape', text: '["a\\x"]', line: 1, column: 4, says: 'a backslash in a string starts an escape' },
    {
      name: 'short unicode escape',
      text: '["\\u12"]',
      line: 1,
      column: 3,
      says: 'a backslash in a string starts an escape',
    },
    { name: 'leading plus', text: '[+1]', line: 1, column: 2, says: 'a value was expected here' },
    { name: 'bare minus', text: '[-]', line: 1, column: 2, says: 'a number was expected here' },
    { name: 'capitalised True', text: '[True]', line: 1, column: 2, says: 'true, false and null are lowercase' },
  ])('$name', ({ text, line, column, says }) => {
    expect(() => JSON.parse(text) as unknown).toThrow();
    const found = locateJsonError(text);
    expect(found).toMatchObject({ line, column });
    expect(found?.reason).toContain(says);
  });

  it.each(['{}', '[]', '{"a": [1, -2.5e3, "x\\n\\u00e9", true, false, null, {}]}', ' \n"s" \n'])(
    'finds nothing wrong in %s',
    (text) => {
      expect(locateJsonError(text)).toBeUndefined();
    },
  );
});

describe('parseJsonText', () => {
  it('parses JSON and drops a byte order mark', () => {
    expect(parseJsonText('\uFEFF{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it("never quotes the file, unlike JSON.parse's own message", () => {
    const text = '["S3cretPass",oops]';
    expect(() => JSON.parse(text) as unknown).toThrow(/S3cretPass/);
    const outcome = parseJsonText(text);
    expect(outcome).toEqual({
      ok: false,
      message: expect.stringMatching(/^not valid JSON at line 1 column 15: a value was expected here/) as unknown,
    });
    expect(JSON.stringify(outcome)).not.toContain('S3cretPass');
  });
});
