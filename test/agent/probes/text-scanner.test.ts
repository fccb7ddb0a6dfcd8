import { describe, expect, it } from 'vitest';
import { createTextScanner, type ScanOptions } from '../../../src-main/agent/probes/text-scanner.ts';

const options = (o: Partial<ScanOptions>): ScanOptions => ({
  matchString: '',
  matchMode: undefined,
  sampleChars: 0,
  maxBytes: 1000,
  ...o,
});
const feed = (o: Partial<ScanOptions>, chunks: (string | number[])[]) => {
  const scanner = createTextScanner(options(o));
  let pushed = 0;
  for (const c of chunks) {
    pushed += 1;
    if (scanner.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c))) break;
  }
  return { ...scanner.finish(), pushed };
};

describe('createTextScanner', () => {
  it.each([
    {
      name: 'needle split across chunks',
      o: { matchString: 'hello' },
      chunks: ['xxhel', 'lo yy'],
      found: true,
      pushed: 2,
    },
    {
      name: 'needle split in three',
      o: { matchString: 'abcdef' },
      chunks: ['ab', 'cd', 'ef', 'more'],
      found: true,
      pushed: 3,
    },
    { name: 'stops at the first find', o: { matchString: 'x' }, chunks: ['x', 'never read'], found: true, pushed: 1 },
    {
      name: 'not_contains stops on a find',
      o: { matchString: 'x', matchMode: 'not_contains' },
      chunks: ['ax', 'b'],
      found: true,
      pushed: 1,
    },
    {
      name: 'missing needle reads everything',
      o: { matchString: 'zz' },
      chunks: ['a', 'b', 'c'],
      found: false,
      pushed: 3,
    },
    {
      name: 'multi-byte character split across chunks',
      o: { matchString: '€' },
      chunks: [[0xe2, 0x82], [0xac]],
      found: true,
      pushed: 2,
    },
    {
      name: 'byte cap stops reading',
      o: { matchString: 'zz', maxBytes: 4 },
      chunks: ['abc', 'defzz', 'zz'],
      found: false,
      pushed: 2,
    },
  ])('$name', ({ o, chunks, found, pushed }) => {
    const result = feed(o, chunks);
    expect(result.found).toBe(found);
    expect(result.pushed).toBe(pushed);
  });

  it('the cap cuts inside a chunk and is reported', () => {
    const result = feed({ matchString: 'def', maxBytes: 4 }, ['abcdef']);
    expect(result).toMatchObject({ found: false, bytes: 4, capped: true });
  });

  it('without a match string, stops once the sample is complete', () => {
    const result = feed({ sampleChars: 3 }, ['ab', 'cdef', 'ghi', 'never']);
    expect(result.pushed).toBe(2);
    expect(result.sample.startsWith('abcdef')).toBe(true);
  });

  it('no sample and nothing to match: the first push already says stop', () => {
    expect(feed({}, ['a', 'b']).pushed).toBe(1);
  });

  it('sample keeps the leading text only', () => {
    const result = feed({ matchString: 'zz', sampleChars: 2 }, ['abcdef', 'ghij']);
    expect(result.sample).toBe('abcd');
  });
});
