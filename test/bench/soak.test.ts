// The soak's arithmetic and its lines (bench/agent/soak.ts): the slope the flat goal is judged on,
// the verdict it prints, and the columns that place a step (heap spaces, GCs since the line
// before). Samples and snapshots are made up here; the soak itself runs only under bench:agent.
import { describe, expect, it } from 'vitest';
import type { GcTotals, InsideMemory } from '../../bench/agent/memory.ts';
import { flatVerdict, gcColumns, slope, spaceColumns } from '../../bench/agent/soak.ts';
import { mib } from '../../bench/support.ts';
import { insideSnapshot } from '../support/inside-memory.ts';

const snapshot = (gc: GcTotals | undefined, spaces: InsideMemory['spaces'] = []): InsideMemory =>
  insideSnapshot(0, gc, spaces);

const gc = (scavenges: number, fullGcs: number): GcTotals => ({
  scavenges,
  scavengeMs: 0,
  fullGcs,
  fullGcMs: 0,
  otherMs: 0,
});

/** Minutes 1..30 of RSS: flat at `base`, plus `step` MB from minute `at` on. */
const soakWithStep = (base: number, step: number, at: number) =>
  Array.from({ length: 30 }, (_, i) => ({ min: i + 1, rssMb: base + (i + 1 >= at ? step : 0), heapUsedMb: 20 }));

describe('the soak', () => {
  it('reads the least-squares slope, and none from fewer than two points', () => {
    expect(
      slope([
        { x: 0, y: 1 },
        { x: 2, y: 2 },
        { x: 4, y: 3 },
      ]),
    ).toBeCloseTo(0.5);
    expect(slope([{ x: 1, y: 5 }])).toBeNaN();
    expect(
      slope([
        { x: 3, y: 1 },
        { x: 3, y: 2 },
      ]),
    ).toBeNaN();
  });

  it('meets the flat goal when a step falls before minute 10, and not when the same step falls after it', () => {
    const early = flatVerdict(1000, 30, soakWithStep(100, 1.7, 8));
    expect(early).toContain('0.00 MB per 10 min');
    expect(early).toMatch(/: met$/);
    const late = flatVerdict(1000, 30, soakWithStep(100, 1.7, 19));
    expect(late).toMatch(/: NOT met$/);
    expect(late).toContain('RSS 100.0 MB at minute 10 and 101.7 MB at minute 30');
  });

  it('does not judge a soak of another size or length', () => {
    expect(flatVerdict(500, 30, soakWithStep(100, 0, 1))).toContain('not measured (this soak: 500 checks, 30 min)');
    expect(flatVerdict(1000, 12, soakWithStep(100, 0, 1).slice(0, 12))).toContain(
      'not measured (this soak: 1,000 checks, 12 min)',
    );
  });

  it("prints the main heap's spaces, and dashes without the preload's snapshot", () => {
    const inside = snapshot(undefined, [
      { name: 'old_space', used: 18 * mib, size: 24 * mib },
      { name: 'new_space', used: 1 * mib, size: 4 * mib },
      { name: 'large_object_space', used: 0.5 * mib, size: 0.5 * mib },
    ]);
    expect(spaceColumns(inside)).toEqual({
      'old space': '18.0 MB of 24.0 MB',
      'new space': '4.0 MB',
      'large objects': '0.5 MB',
    });
    expect(spaceColumns(undefined)).toEqual({ 'old space': '— of —', 'new space': '—', 'large objects': '—' });
  });

  it('counts the GCs since the line before, and none across a restart or without figures', () => {
    expect(gcColumns(snapshot(gc(100, 4)), snapshot(gc(1_340, 6)))).toEqual({ scavenges: '1,240', 'full GCs': '2' });
    expect(gcColumns(snapshot(gc(100, 4)), snapshot(gc(3, 0)))).toEqual({ scavenges: '—', 'full GCs': '—' });
    expect(gcColumns(undefined, snapshot(gc(3, 0)))).toEqual({ scavenges: '—', 'full GCs': '—' });
    expect(gcColumns(snapshot(undefined), snapshot(gc(3, 0)))).toEqual({ scavenges: '—', 'full GCs': '—' });
  });
});
