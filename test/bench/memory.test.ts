// A thread's GCs over the bench's window, from two snapshots of the memory preload
// (bench/agent/memory.ts gcBetween). Snapshots are made up here: what is tested is the arithmetic
// the GC table stands on, and the readings it must not turn into figures.
import { describe, expect, it } from 'vitest';
import { gcBetween, type GcTotals, type InsideMemory } from '../../bench/agent/memory.ts';

function snapshot(at: number, gc: GcTotals | undefined): InsideMemory {
  return {
    at,
    rss: 0,
    heapUsed: 0,
    heapTotal: 0,
    external: 0,
    arrayBuffers: 0,
    malloced: 0,
    spaces: [],
    ...(gc === undefined ? {} : { gc }),
  };
}

const start: GcTotals = { scavenges: 100, scavengeMs: 80, fullGcs: 4, fullGcMs: 20, otherMs: 6 };

describe("a thread's GCs over the window", () => {
  it('counts each kind a second over the time between the snapshots, with its mean pause', () => {
    const end: GcTotals = { scavenges: 910, scavengeMs: 809, fullGcs: 42, fullGcMs: 305, otherMs: 120 };
    const rates = gcBetween(snapshot(1_000, start), snapshot(31_000, end));
    expect(rates?.scavengesPerS).toBeCloseTo(27);
    expect(rates?.scavengeMeanMs).toBeCloseTo(0.9);
    expect(rates?.fullGcsPerS).toBeCloseTo(38 / 30);
    expect(rates?.fullGcMeanMs).toBeCloseTo(7.5);
    // 729 + 285 + 114 ms of pauses over 30 s.
    expect(rates?.pauseMsPerS).toBeCloseTo(1128 / 30);
  });

  it('has no mean pause for a kind that did not run', () => {
    const end: GcTotals = { ...start, scavenges: 130, scavengeMs: 95 };
    const rates = gcBetween(snapshot(0, start), snapshot(10_000, end));
    expect(rates?.fullGcsPerS).toBe(0);
    expect(rates?.fullGcMeanMs).toBeUndefined();
    expect(rates?.scavengeMeanMs).toBeCloseTo(0.5);
  });

  it('gives nothing without two snapshots that both counted GCs', () => {
    expect(gcBetween(undefined, snapshot(1_000, start))).toBeUndefined();
    expect(gcBetween(snapshot(0, undefined), snapshot(1_000, start))).toBeUndefined();
    expect(gcBetween(snapshot(0, start), snapshot(1_000, undefined))).toBeUndefined();
  });

  it('gives nothing for the same snapshot twice or a thread started again between them', () => {
    expect(gcBetween(snapshot(5_000, start), snapshot(5_000, start))).toBeUndefined();
    const afresh: GcTotals = { scavenges: 3, scavengeMs: 2, fullGcs: 0, fullGcMs: 0, otherMs: 0 };
    expect(gcBetween(snapshot(0, start), snapshot(10_000, afresh))).toBeUndefined();
  });
});
