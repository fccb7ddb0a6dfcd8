import { describe, expect, it } from 'vitest';
import {
  firstRunAt,
  gridAfterFirstRun,
  hashGuid,
  nextGridPoint,
  phaseMs,
} from '../../../src-main/agent/schedule/grid.ts';

describe('grid arithmetic', () => {
  it('hashes guids stably and spreads them', () => {
    expect(hashGuid('abc')).toBe(hashGuid('abc'));
    const phases = new Set(Array.from({ length: 1000 }, (_, i) => Math.floor(phaseMs(`check-${i}`, 10_000) / 1000)));
    expect(phases.size).toBe(10); // every second of a 10 s interval gets some of 1,000 checks
  });

  it.each([
    { name: 'just before a point', t: 12_999, interval: 10_000, phase: 3000, next: 13_000 },
    { name: 'exactly on a point goes to the next', t: 13_000, interval: 10_000, phase: 3000, next: 23_000 },
    { name: 'just after a point', t: 13_001, interval: 10_000, phase: 3000, next: 23_000 },
    { name: 'phase 0', t: 5, interval: 60_000, phase: 0, next: 60_000 },
  ])('nextGridPoint: $name', ({ t, interval, phase, next }) => {
    expect(nextGridPoint(t, interval, phase)).toBe(next);
  });

  it('first runs fall inside the start-up spread, or the interval when shorter', () => {
    for (let i = 0; i < 200; i++) {
      const at = firstRunAt(1000, `g${i}`, 60_000, 5000);
      expect(at).toBeGreaterThanOrEqual(1000);
      expect(at).toBeLessThan(6000);
      expect(firstRunAt(1000, `g${i}`, 2000, 5000)).toBeLessThan(3000);
    }
  });

  it('after a first run, the grid resumes at least half an interval later', () => {
    expect(gridAfterFirstRun(12_900, 10_000, 3000)).toBe(23_000);
    expect(gridAfterFirstRun(10_000, 10_000, 3000)).toBe(23_000);
    expect(gridAfterFirstRun(7_000, 10_000, 3000)).toBe(13_000);
  });
});
