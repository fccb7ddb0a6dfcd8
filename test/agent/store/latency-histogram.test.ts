// A rollup bucket's latency histogram holds counters only for the stretch of slots its latencies
// use (issue 26: 448 counters for each of a check's two open buckets were ~2 KB a check), and
// reads the same percentiles as counters for every slot would. Pure.
import { describe, expect, it } from 'vitest';
import { CounterPools } from '../../../src-main/agent/store/counter-pools.ts';
import { LatencyHistogram, latencySlots, slotOf, slotValue } from '../../../src-main/agent/store/latency-histogram.ts';

/** The same samples through counters for every slot (as before issue 26): what the stretch must agree with. */
function everySlot(samples: number[], p: number): number {
  const counts = new Array<number>(latencySlots).fill(0);
  for (const ms of samples) counts[slotOf(ms)] = (counts[slotOf(ms)] ?? 0) + 1;
  const min = Math.min(...samples);
  const max = Math.max(...samples);
  const rank = Math.min(samples.length, Math.max(1, Math.ceil((p / 100) * samples.length)));
  let seen = 0;
  for (let slot = 0; slot < latencySlots; slot++) {
    seen += counts[slot] ?? 0;
    if (seen >= rank) return Math.min(max, Math.max(min, slotValue(slot)));
  }
  return max;
}

describe('latency histogram', () => {
  it('holds 16 one-byte counters for latencies that stay in a few slots, and nothing before the first', () => {
    const h = new LatencyHistogram();
    expect(h.bytes).toBe(0);
    for (let i = 0; i < 200; i++) h.add(20 + (i % 5));
    expect(h.bytes).toBe(16);
    expect([h.percentile(50), h.percentile(95), h.min, h.max]).toEqual([22, 24, 20, 24]);
  });

  it('grows to cover a latency above or below its stretch, keeping every count', () => {
    const h = new LatencyHistogram();
    const samples = [300, 310, 305, 5_000, 2, 301, 40_000, 1];
    for (const ms of samples) h.add(ms);
    expect(h.count).toBe(samples.length);
    expect(h.length).toBeLessThanOrEqual(latencySlots);
    const sorted = [...samples].sort((a, b) => a - b);
    // Nearest rank: the 4th of 8 for the median (301), the 8th for p95 (40,000); within a slot's 1/64.
    expect(Math.abs(h.percentile(50) - (sorted[3] ?? 0)) / (sorted[3] ?? 1)).toBeLessThanOrEqual(1 / 64);
    expect(h.percentile(95)).toBe(40_000);
    expect(h.percentile(1)).toBe(1);
  });

  it('widens its counters past 255 runs in a slot, inside the stretch it has', () => {
    const h = new LatencyHistogram();
    for (let i = 0; i < 300; i++) h.add(7);
    h.add(9);
    expect([h.width, h.length]).toEqual([2, 16]);
    expect(h.percentile(99)).toBe(7);
    expect(h.percentile(100)).toBe(9);
  });

  it('a cleared histogram gives its counters back: the next bucket starts from 16 one-byte counters', () => {
    const pools = new CounterPools();
    const h = new LatencyHistogram(pools);
    for (let i = 0; i < 300; i++) h.add(100);
    h.add(5_000);
    expect(h.width).toBe(2);
    expect(h.length).toBeGreaterThan(16);
    h.clear();
    expect([h.count, h.percentile(50), h.bytes]).toEqual([0, 0, 0]);
    expect(pools.pool(2, 256).used + pools.pool(2, 512).used).toBe(0);
    h.add(101);
    expect([h.count, h.percentile(50), h.length, h.width]).toEqual([1, 101, 16, 1]);
  });

  it('reads the percentiles counters for every slot would, whatever order the latencies come in', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let round = 0; round < 50; round++) {
      const samples = Array.from(
        { length: 1 + Math.floor(random() * 400) },
        () => 1 + Math.floor(random() ** 4 * 60_000),
      );
      const h = new LatencyHistogram();
      for (const ms of samples) h.add(ms);
      for (const p of [1, 50, 95, 99, 100]) expect(h.percentile(p)).toBe(everySlot(samples, p));
    }
  });

  it('histograms sharing pools keep their counts apart through growth, widening, clears and new ones', () => {
    // Counters of many histograms sit side by side in shared chunks: a write past a block, a block
    // handed out twice or one given back unzeroed would mix one histogram's runs into another's.
    let seed = 11;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pools = new CounterPools();
    const histograms = Array.from({ length: 10 }, () => ({ h: new LatencyHistogram(pools), samples: [] as number[] }));
    for (let step = 0; step < 40_000; step++) {
      const one = histograms[Math.floor(random() * histograms.length)];
      if (one === undefined) continue;
      const roll = random();
      if (roll < 0.001) {
        one.h.clear();
        one.h = new LatencyHistogram(pools);
        one.samples = [];
      } else if (roll < 0.002) {
        one.h.clear();
        one.samples = [];
      } else {
        // Half in one slot (past 255 runs: widened), nearly all the rest across a whole block of 16
        // slots of the histogram's own, now and then anywhere up to 60 s.
        const low = 10 + 13 * histograms.indexOf(one);
        const kind = random();
        const ms =
          kind < 0.5 ? low : kind < 0.99 ? low + Math.floor(random() * 16) : 1 + Math.floor(random() ** 3 * 60_000);
        one.h.add(ms);
        one.samples.push(ms);
      }
    }
    let widened = 0;
    for (const { h, samples } of histograms) {
      expect(h.count).toBe(samples.length);
      if (h.width > 1) widened++;
      if (samples.length === 0) continue;
      for (const p of [1, 50, 95, 99, 100]) expect(h.percentile(p)).toBe(everySlot(samples, p));
    }
    expect(widened).toBeGreaterThan(0);
  });
});
