import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src-main/agent/delivery/backoff.ts';

const policy = { baseMs: 1000, maxMs: 30_000, factor: 2, jitter: 0.5 };

describe('backoffDelay', () => {
  it.each([
    { name: 'first failure waits the base', attempt: 1, random: 0, expected: 1000 },
    { name: 'doubles per failure', attempt: 3, random: 0, expected: 4000 },
    { name: 'never exceeds the cap', attempt: 30, random: 0, expected: 30_000 },
    { name: 'jitter takes away up to half', attempt: 2, random: 1, expected: 1000 },
    { name: 'jitter is proportional', attempt: 2, random: 0.5, expected: 1500 },
    { name: 'attempt 0 behaves like the first', attempt: 0, random: 0, expected: 1000 },
  ])('$name', ({ attempt, random, expected }) => {
    expect(backoffDelay(attempt, policy, () => random)).toBe(expected);
  });
});
