// Issue 12 §4: the RFC 3339 forms the real server was seen to send, and those it must not.
import { describe, expect, it } from 'vitest';
import { isRfc3339 } from '../../../src-main/agent/wire/rfc3339.ts';

describe('RFC 3339 forms', () => {
  it.each([
    '2026-11-21T10:00:00Z',
    '2026-11-21t10:00:00z',
    '2026-12-31T23:59:60Z',
    '2026-11-21T10:00:00.1Z',
    '2026-11-21T10:00:00.123456789Z',
    '2026-11-21T10:00:00.000000000+05:30',
    '2026-11-21T10:00:00-00:00',
  ])('accepts %s', (text) => expect(isRfc3339(text)).toBe(true));
  it.each([
    '2026-11-21 10:00:00Z',
    '2026-02-30T10:00:00Z',
    '2026-11-21T24:00:00Z',
    '2026-11-21T10:00:61Z',
    '2026-11-21T10:00:00',
    '2026-11-21T10:00:00.Z',
    '2026-11-21T10:00:00+25:00',
  ])('refuses %s', (text) => expect(isRfc3339(text)).toBe(false));
});
