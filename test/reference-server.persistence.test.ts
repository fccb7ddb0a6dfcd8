// The pure helpers (timestamps, capping) that the reference server's wire behaviour rests on.
import { describe, expect, it } from 'vitest';
import { capCodePoints } from './reference-server/results-store.ts';
import { formatMicros, parseRfc3339 } from './reference-server/timestamps.ts';

describe('timestamps and capping', () => {
  it('formats with exactly six fractional digits', () => {
    expect(formatMicros(0)).toBe('1970-01-01T00:00:00.000000Z');
    expect(formatMicros(Date.UTC(2026, 10, 21, 10, 29, 50, 123) * 1000 + 456)).toBe('2026-11-21T10:29:50.123456Z');
  });

  const parses: [string, number | undefined][] = [
    ['2026-11-21T10:29:50Z', Date.UTC(2026, 10, 21, 10, 29, 50) * 1000],
    ['2026-11-21T10:29:50.123456789Z', Date.UTC(2026, 10, 21, 10, 29, 50) * 1000 + 123456],
    ['2026-11-21T12:29:50.5+02:00', Date.UTC(2026, 10, 21, 10, 29, 50) * 1000 + 500000],
    ['2026-11-21t10:29:50z', Date.UTC(2026, 10, 21, 10, 29, 50) * 1000],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29) * 1000],
    ['0001-01-01T00:00:00Z', -62135596800000 * 1000],
    ['0000-02-29T00:00:00Z', -62162121600000 * 1000],
    ['2026-02-29T00:00:00Z', undefined],
    ['2026-11-21T10:29Z', undefined],
    ['2026-11-21T10:29:50.Z', undefined],
    ['2026-11-21T10:29:50+24:00', undefined],
  ];
  it.each(parses)('parses %j', (text, micros) => {
    expect(parseRfc3339(text)).toBe(micros);
  });

  it('caps in code points, never splitting a pair', () => {
    expect(capCodePoints('😀a😀', 2)).toBe('😀a');
    expect(capCodePoints('abc', 0)).toBe('');
    expect(capCodePoints('abc', 10)).toBe('abc');
  });
});
