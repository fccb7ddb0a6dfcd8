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
// heap, ~13 MB at 6,000 checks. A counter is one byte while it holds at most 255 runs, two up to
// 65,535 (an hour of 1 s runs all in one slot), four beyond; the counters widen themselves. They
// are a block of shared chunks (counter-pools.ts), not a typed array of the histogram's own.
import { CounterPools, type CounterPool, type CounterWidth, type Counters } from './counter-pools.ts';

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

/** The most a counter of each width holds before it is widened. */
const fullAt: Record<CounterWidth, number> = { 1: 0xff, 2: 0xffff, 4: 0xffff_ffff };

const noCounters: Counters = new Uint8Array(0);

export class LatencyHistogram {
  /** The pool of the block that holds the counters of slots base .. base + length - 1. */
  private pool: CounterPool | undefined;
  private block = 0;
  /** Where that block is: chunks never move, so these stay right until the block is given back. */
  private chunk: Counters = noCounters;
  private offset = 0;
  private base = 0;
  count = 0;
  min = Number.POSITIVE_INFINITY;
  max = 0;
  /** The slots in use, so a percentile, a clear or a move reads only those. */
  private low = latencySlots;
  private high = -1;

  private readonly pools: CounterPools;

  /** `pools` is shared by the histograms of one owner (the rollups' open buckets). */
  constructor(pools: CounterPools = new CounterPools()) {
    this.pools = pools;
  }

  /** Counters held. */
  get length(): number {
    return this.pool?.length ?? 0;
  }

  /** Bytes a counter takes: 1, widened to 2 past 255 runs in a slot and to 4 past 65,535. */
  get width(): CounterWidth {
    return this.pool?.width ?? 1;
  }

  get bytes(): number {
    return this.length * this.width;
  }

  add(ms: number): void {
    const slot = slotOf(ms);
    if (this.pool === undefined || slot < this.base || slot >= this.base + this.pool.length) this.cover(slot);
    let at = this.offset + slot - this.base;
    const held = this.chunk[at] ?? 0;
    if (held === fullAt[this.width] && this.width < 4) {
      this.moveTo((this.width * 2) as CounterWidth, this.length, this.base);
      at = this.offset + slot - this.base;
    }
    this.chunk[at] = held + 1;
    this.count += 1;
    if (ms < this.min) this.min = ms;
    if (ms > this.max) this.max = ms;
    if (slot < this.low) this.low = slot;
    if (slot > this.high) this.high = slot;
  }

  /** Grows the counters (same width) to a stretch that holds slot and every slot they held. */
  private cover(slot: number): void {
    const held = this.length;
    const from = held === 0 ? slot : Math.min(this.base, slot);
    const to = held === 0 ? slot : Math.max(this.base + held - 1, slot);
    let length = Math.max(firstStretch, held);
    while (length < to - from + 1) length *= 2;
    length = Math.min(length, latencySlots);
    // Room on the side it grew towards, as far as the slots go.
    const base = Math.max(0, Math.min(slot < this.base ? to + 1 - length : from, latencySlots - length));
    this.moveTo(this.width, length, base);
  }

  /** Takes a block of `length` counters of `width` for slots from `base`, and carries the counts over. */
  private moveTo(width: CounterWidth, length: number, base: number): void {
    const pool = this.pools.pool(width, length);
    const block = pool.take();
    const chunk = pool.chunkOf(block);
    const offset = pool.offsetOf(block);
    if (this.pool !== undefined) {
      for (let slot = this.low; slot <= this.high; slot++)
        chunk[offset + slot - base] = this.chunk[this.offset + slot - this.base] ?? 0;
      this.pool.give(this.block);
    }
    this.pool = pool;
    this.block = block;
    this.chunk = chunk;
    this.offset = offset;
    this.base = base;
  }

  /** Nearest-rank percentile (as a sorted array of the samples would give), to the slot's precision. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.min(this.count, Math.max(1, Math.ceil((p / 100) * this.count)));
    let seen = 0;
    for (let slot = this.low; slot <= this.high; slot++) {
      seen += this.chunk[this.offset + slot - this.base] ?? 0;
      if (seen >= rank) return Math.min(this.max, Math.max(this.min, slotValue(slot)));
    }
    return this.max;
  }

  /**
   * Empties it for the next bucket and gives its counters back to the pool, so each bucket holds
   * only the stretch and width its own runs need. Kept from one bucket to the next, they only ever
   * grew: one slow run widened every later bucket of its check, and over hours every check's
   * counters crept towards their widest (issue 26; the soaks before and after, and what taking a
   * block again costs, are in docs/performance.md).
   */
  clear(): void {
    // The pool zeroes the block it takes back.
    this.count = 0;
    this.min = Number.POSITIVE_INFINITY;
    this.max = 0;
    this.low = latencySlots;
    this.high = -1;
    if (this.pool !== undefined) this.pool.give(this.block);
    this.pool = undefined;
    this.chunk = noCounters;
    this.offset = 0;
    this.base = 0;
  }
}
