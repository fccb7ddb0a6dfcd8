// The latencies of one open rollup bucket in a fixed, small amount of memory, whatever the number
// of runs: an hour of 1 s runs is 3,600 samples, and keeping them (as the rollups once did) grew
// every check's memory by tens of KB an hour. A histogram over log-scale slots instead:
// - 0-127 ms: one slot per millisecond, so figures there are exact (latency_ms is whole ms);
// - from 128 ms, every doubling [2^k, 2^(k+1)) is cut into 32 equal slots, up to 2^17 ms (131 s,
//   beyond any run's 60 s deadline; anything longer lands in the last slot).
// A slot reports its midpoint, so a median or p95 is within 1/64 (1.6 %) of the exact
// nearest-rank figure of the same samples, and it is clamped to min..max, which are kept exact.
// 448 slots: 448 bytes while no slot holds more than 255 runs, 896 up to 65,535 (an hour of 1 s
// runs all in one slot), 1,792 beyond; the counters widen themselves.

/** Below this every millisecond has its own slot. */
const exactBelow = 128;
const exactBits = 7;
/** Slots per doubling above exactBelow: 2^5 = 32, so a slot is 1/32 of its doubling's start. */
const subBits = 5;
/** Latencies from 2^17 ms (131 s) on share the last slot. */
const topBits = 17;
export const latencySlots = exactBelow + ((topBits - exactBits) << subBits);
const topValue = (1 << topBits) - 1;

/** The slot of a latency in whole milliseconds. */
export function slotOf(ms: number): number {
  const v = Math.min(topValue, Math.max(0, Math.floor(ms)));
  if (v < exactBelow) return v;
  const doubling = 31 - Math.clz32(v);
  const sub = (v >>> (doubling - subBits)) & ((1 << subBits) - 1);
  return exactBelow + ((doubling - exactBits) << subBits) + sub;
}

/** What a slot reports: its midpoint (exact below exactBelow). */
export function slotValue(slot: number): number {
  if (slot < exactBelow) return slot;
  const doubling = exactBits + ((slot - exactBelow) >>> subBits);
  const width = 1 << (doubling - subBits);
  return (1 << doubling) + ((slot - exactBelow) & ((1 << subBits) - 1)) * width + (width >>> 1);
}

export class LatencyHistogram {
  counts: Uint8Array | Uint16Array | Uint32Array = new Uint8Array(latencySlots);
  count = 0;
  min = Number.POSITIVE_INFINITY;
  max = 0;
  /** The slots in use, so a percentile or a clear scans only those. */
  private low = latencySlots;
  private high = -1;

  add(ms: number): void {
    const slot = slotOf(ms);
    let counts = this.counts;
    const held = counts[slot] ?? 0;
    if (held === 0xff && counts instanceof Uint8Array) counts = this.counts = Uint16Array.from(counts);
    else if (held === 0xffff && counts instanceof Uint16Array) counts = this.counts = Uint32Array.from(counts);
    counts[slot] = held + 1;
    this.count += 1;
    if (ms < this.min) this.min = ms;
    if (ms > this.max) this.max = ms;
    if (slot < this.low) this.low = slot;
    if (slot > this.high) this.high = slot;
  }

  /** Nearest-rank percentile (as a sorted array of the samples would give), to the slot's precision. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.min(this.count, Math.max(1, Math.ceil((p / 100) * this.count)));
    let seen = 0;
    for (let slot = this.low; slot <= this.high; slot++) {
      seen += this.counts[slot] ?? 0;
      if (seen >= rank) return Math.min(this.max, Math.max(this.min, slotValue(slot)));
    }
    return this.max;
  }

  /** Empties it for the next bucket, keeping its counters (and their width) for reuse. */
  clear(): void {
    if (this.high >= this.low) this.counts.fill(0, this.low, this.high + 1);
    this.count = 0;
    this.min = Number.POSITIVE_INFINITY;
    this.max = 0;
    this.low = latencySlots;
    this.high = -1;
  }
}
