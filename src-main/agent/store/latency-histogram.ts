// The latencies of one open rollup bucket in a fixed, small amount of memory, whatever the number
// of runs: an hour of 1 s runs is 3,600 samples, and keeping them (as the rollups once did) grew
// every check's memory by tens of KB an hour. A histogram over log-scale slots instead:
// - 0-127 ms: one slot per millisecond, so figures there are exact (latency_ms is whole ms);
// - from 128 ms, every doubling [2^k, 2^(k+1)) is cut into 32 equal slots, up to 2^17 ms (131 s,
//   beyond any run's 60 s deadline; anything longer lands in the last slot).
// A slot reports its midpoint, so a median or p95 is within 1/64 (1.6 %) of the exact
// nearest-rank figure of the same samples, and it is clamped to min..max, which are kept exact.
// 448 slots, but the counters hold only the stretch of slots in use, grown by doublings from 16
// (issue 26): a check's latencies mostly stay within a few slots, and two buckets of every check
// are open at once, so 448 counters each came to ~2 KB a check with their buffers outside V8's
// heap, ~13 MB at 6,000 checks. Up to 64 bytes V8 keeps a typed array inside its heap. A counter
// is one byte while it holds at most 255 runs, two up to 65,535 (an hour of 1 s runs all in one
// slot), four beyond; the counters widen themselves.

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

/** The fewest counters a histogram holds once it holds any: 16 one-byte counters. */
const firstStretch = 16;

export class LatencyHistogram {
  /** Counters of slots base .. base + counts.length - 1. */
  counts: Uint8Array | Uint16Array | Uint32Array = new Uint8Array(0);
  private base = 0;
  count = 0;
  min = Number.POSITIVE_INFINITY;
  max = 0;
  /** The slots in use, so a percentile or a clear scans only those. */
  private low = latencySlots;
  private high = -1;

  add(ms: number): void {
    const slot = slotOf(ms);
    if (slot < this.base || slot >= this.base + this.counts.length) this.cover(slot);
    let counts = this.counts;
    const at = slot - this.base;
    const held = counts[at] ?? 0;
    if (held === 0xff && counts instanceof Uint8Array) counts = this.counts = Uint16Array.from(counts);
    else if (held === 0xffff && counts instanceof Uint16Array) counts = this.counts = Uint32Array.from(counts);
    counts[at] = held + 1;
    this.count += 1;
    if (ms < this.min) this.min = ms;
    if (ms > this.max) this.max = ms;
    if (slot < this.low) this.low = slot;
    if (slot > this.high) this.high = slot;
  }

  /** Grows the counters (same width) to a stretch that holds slot and every slot they held. */
  private cover(slot: number): void {
    const old = this.counts;
    const from = old.length === 0 ? slot : Math.min(this.base, slot);
    const to = old.length === 0 ? slot : Math.max(this.base + old.length - 1, slot);
    let length = Math.max(firstStretch, old.length);
    while (length < to - from + 1) length *= 2;
    length = Math.min(length, latencySlots);
    // Room on the side it grew towards, as far as the slots go.
    const base = Math.max(0, Math.min(slot < this.base ? to + 1 - length : from, latencySlots - length));
    const counts = new (old.constructor as Uint8ArrayConstructor)(length);
    if (old.length > 0) counts.set(old, this.base - base);
    this.counts = counts;
    this.base = base;
  }

  /** Nearest-rank percentile (as a sorted array of the samples would give), to the slot's precision. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.min(this.count, Math.max(1, Math.ceil((p / 100) * this.count)));
    let seen = 0;
    for (let slot = this.low; slot <= this.high; slot++) {
      seen += this.counts[slot - this.base] ?? 0;
      if (seen >= rank) return Math.min(this.max, Math.max(this.min, slotValue(slot)));
    }
    return this.max;
  }

  /** Empties it for the next bucket, keeping its counters (their stretch and width) for reuse. */
  clear(): void {
    if (this.high >= this.low) this.counts.fill(0, this.low - this.base, this.high - this.base + 1);
    this.count = 0;
    this.min = Number.POSITIVE_INFINITY;
    this.max = 0;
    this.low = latencySlots;
    this.high = -1;
  }
}
