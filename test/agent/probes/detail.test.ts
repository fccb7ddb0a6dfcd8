import { describe, expect, it } from 'vitest';
import { capDetail, cutOwn, decodeUtf8 } from '../../../src-main/agent/probes/detail.ts';

describe('capDetail', () => {
  it.each([
    { name: 'zero means nothing', text: 'hello', max: 0, out: '' },
    { name: 'negative means nothing', text: 'hello', max: -1, out: '' },
    { name: 'short text unchanged', text: 'hello', max: 10, out: 'hello' },
    { name: 'cut to code points', text: 'hello world', max: 5, out: 'hello' },
    { name: 'astral characters count once', text: '😀😀😀', max: 2, out: '😀😀' },
    { name: 'never splits a surrogate pair', text: 'a😀b', max: 2, out: 'a😀' },
    { name: 'lone surrogate replaced', text: 'a\uD800b', max: 10, out: 'a\uFFFDb' },
    {
      name: 'NUL, BEL, ESC, DEL and C1 controls shown as escapes, never dropped',
      text: 'a\u0000b\u0007c\u001Bd\u007Fe\u0085f',
      max: 100,
      out: 'a\\x00b\\x07c\\x1bd\\x7fe\\x85f',
    },
    {
      name: 'bidi overrides and isolates shown as escapes',
      text: '\u202Egnp.exe \u202A\u202B\u202C\u202D \u2066\u2067\u2068\u2069',
      max: 200,
      out: '\\u202egnp.exe \\u202a\\u202b\\u202c\\u202d \\u2066\\u2067\\u2068\\u2069',
    },
    { name: 'an escape counts against the cap and is never cut in half', text: 'ab\u001Bcd', max: 5, out: 'ab' },
    { name: 'tab and line breaks kept', text: 'a\tb\r\nc', max: 10, out: 'a\tb\r\nc' },
    { name: 'fractional cap floors', text: 'abcdef', max: 2.9, out: 'ab' },
  ])('$name', ({ text, max, out }) => {
    expect(capDetail(text, max)).toBe(out);
  });

  it.each([
    { name: 'invalid UTF-8 replaced', bytes: [0x68, 0x69, 0xff, 0xfe, 0x21], out: 'hi\uFFFD\uFFFD!' },
    { name: 'truncated sequence replaced', bytes: [0x61, 0xe2, 0x82], out: 'a\uFFFD' },
    { name: 'valid multi-byte kept', bytes: [0xe2, 0x82, 0xac], out: '€' },
    { name: 'binary NUL shown', bytes: [0x00, 0x52, 0x46, 0x42, 0x00], out: '\\x00RFB\\x00' },
    { name: 'byte order mark dropped', bytes: [0xef, 0xbb, 0xbf, 0x6f, 0x6b], out: 'ok' },
  ])('bytes: $name', ({ bytes, out }) => {
    expect(capDetail(Buffer.from(bytes), 100)).toBe(out);
    expect(capDetail(new Uint8Array(bytes), 100)).toBe(out);
  });

  it('decodeUtf8 never throws on garbage', () => {
    expect(decodeUtf8(Buffer.from([0xc3, 0x28]))).toBe('\uFFFD(');
  });

  it('the result always encodes as valid UTF-8 and round-trips', () => {
    const out = capDetail('x\uDC00y\uD83D', 10);
    expect(Buffer.from(out, 'utf8').toString('utf8')).toBe(out);
  });
});

// What the copy is for (its own text, not a view of the longer one) is measured on a real page
// in sample-memory.int.test.ts; here, that the cut is the right text at its edges.
describe('cutOwn', () => {
  it.each([
    { name: 'a real cut keeps the first units', text: 'x'.repeat(20) + 'tail', end: 20, out: 'x'.repeat(20) },
    { name: 'a text that fits is whole', text: 'hello', end: 5, out: 'hello' },
    { name: 'room to spare is whole', text: 'hello', end: 4096, out: 'hello' },
    { name: 'the empty text', text: '', end: 10, out: '' },
    { name: 'one unit short', text: 'hello world, longer than a view', end: 30, out: 'hello world, longer than a vie' },
  ])('$name', ({ text, end, out }) => {
    expect(cutOwn(text, end)).toBe(out);
  });
});
