// A thread's GCs over the bench's window, from two snapshots of the memory preload
// (bench/agent/memory.ts gcBetween). Snapshots are made up here: what is tested is the arithmetic
// the GC table stands on, and the readings it must not turn into figures.
import { describe, expect, it } from 'vitest';
import { gcBetween, type GcTotals } from '../../bench/agent/memory.ts';
import { insideSnapshot } from '../support/inside-memory.ts';

const start: GcTotals = { scavenges: 100, scavengeMs: 80, fullGcs: 4, fullGcMs: 20, otherMs: 6 };

describe("a thread's GCs over the window", () => {
  it('counts each kind a second over the time between the snapshots, with its mean pause', () => {
    const end: GcTotals = { scavenges: 910, scavengeMs: 809, fullGcs: 42, fullGcMs: 305, otherMs: 120 };
    const rates = gcBetween(insideSnapshot(1_000, start), insideSnapshot(31_000, end));
    expect(rates?.scavengesPerS).toBeCloseTo(27);
    expect(rates?.scavengeMeanMs).toBeCloseTo(0.9);
    expect(rates?.fullGcsPerS).toBeCloseTo(38 / 30);
    expect(rates?.fullGcMeanMs).toBeCloseTo(7.5);
    // 729 + 285 + 114 ms of pauses over 30 s.
    expect(rates?.pauseMsPerS).toBeCloseTo(1128 / 30);
  });

  it('has no mean pause for a kind that did not run', () => {
    const end: GcTotals = { ...start, scavenges: 130, scavengeMs: 95 };
    const rates = gcBetween(insideSnapshot(0, start), insideSnapshot(10_000, end));
    expect(rates?.fullGcsPerS).toBe(0);
    expect(rates?.fullGcMeanMs).toBeUndefined();
    expect(rates?.scavengeMeanMs).toBeCloseTo(0.5);
  });

  it('gives nothing without two snapshots that both counted GCs', () => {
    expect(gcBetween(undefined, insideSnapshot(1_000, start))).toBeUndefined();
    expect(gcBetween(insideSnapshot(0, undefined), insideSnapshot(1_000, start))).toBeUndefined();
    expect(gcBetween(insideSnapshot(0, start), insideSnapshot(1_000, undefined))).toBeUndefined();
  });

  it('gives nothing for the same snapshot twice or a thread started again between them', () => {
    expect(gcBetween(insideSnapshot(5_000, start), insideSnapshot(5_000, start))).toBeUndefined();
    const afresh: GcTotals = { scavenges: 3, scavengeMs: 2, fullGcs: 0, fullGcMs: 0, otherMs: 0 };
    expect(gcBetween(insideSnapshot(0, start), insideSnapshot(10_000, afresh))).toBeUndefined();
  });
});
