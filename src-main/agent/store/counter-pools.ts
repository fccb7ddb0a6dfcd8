// Where the rollups' latency histograms keep their counters: blocks of one length and width cut
// from shared chunks, instead of a typed array of its own for each histogram. A typed array and its
// ArrayBuffer are ~200 bytes of V8 objects plus native bookkeeping, more than the 16-256 bytes of
// counters most histograms hold, and every check has two (issue 26: at 6,000 checks ~11,000 of
// them, heap snapshots). Chunks are never copied or moved, so a histogram may keep its chunk and
// offset; a block given back is zeroed and handed out again.

export type CounterWidth = 1 | 2 | 4;
export type Counters = Uint8Array | Uint16Array | Uint32Array;

const counterArray = { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array } as const;

/** Bytes of one chunk: few chunks for many blocks, and little left unused in a pool that is barely used. */
const chunkBytes = 8 * 1024;

/**
 * Blocks of `length` counters of `width` bytes each, named by a number. A chunk whose blocks are
 * all given back is dropped (unless it is the pool's last): histograms move up through the
 * lengths as their latencies spread, so the short lengths' chunks would otherwise stay at their
 * busiest for good.
 */
export class CounterPool {
  private readonly chunks: (Counters | undefined)[] = [];
  /** Blocks taken, by chunk. */
  private readonly usedIn: number[] = [];
  /** Blocks free in the chunks there are; the next taken is the last. */
  private free: number[] = [];
  private held = 0;
  private readonly perChunk: number;
  readonly width: CounterWidth;
  readonly length: number;

  constructor(width: CounterWidth, length: number) {
    this.width = width;
    this.length = length;
    this.perChunk = Math.max(1, Math.floor(chunkBytes / (width * length)));
  }

  /** A zeroed block. */
  take(): number {
    if (this.free.length === 0) this.addChunk();
    const block = this.free.pop() ?? 0;
    const index = this.chunkIndex(block);
    this.usedIn[index] = (this.usedIn[index] ?? 0) + 1;
    return block;
  }

  /** The chunk that holds the block's counters. */
  chunkOf(block: number): Counters {
    const chunk = this.chunks[this.chunkIndex(block)];
    if (chunk === undefined) throw new Error(`counter block ${block} is not taken`);
    return chunk;
  }

  /** Where the block's first counter is in its chunk. */
  offsetOf(block: number): number {
    return (block % this.perChunk) * this.length;
  }

  /** The block is no longer used: zeroed for the next taker, or dropped with its chunk. */
  give(block: number): void {
    const offset = this.offsetOf(block);
    this.chunkOf(block).fill(0, offset, offset + this.length);
    this.free.push(block);
    const index = this.chunkIndex(block);
    const used = (this.usedIn[index] ?? 1) - 1;
    this.usedIn[index] = used;
    if (used === 0 && this.held > 1) {
      this.chunks[index] = undefined;
      this.held--;
      this.free = this.free.filter((b) => this.chunkIndex(b) !== index);
    }
  }

  /** Blocks in use. */
  get used(): number {
    return this.usedIn.reduce((sum, n) => sum + n, 0);
  }

  /** Chunks held. */
  get chunksHeld(): number {
    return this.held;
  }

  private chunkIndex(block: number): number {
    return Math.floor(block / this.perChunk);
  }

  /** A chunk in the first place one was dropped from (or a new place), its blocks all free. */
  private addChunk(): void {
    let index = this.chunks.indexOf(undefined);
    if (index < 0) index = this.chunks.length;
    this.chunks[index] = new counterArray[this.width](this.perChunk * this.length);
    this.usedIn[index] = 0;
    this.held++;
    // Lowest last, so it is taken first.
    for (let i = this.perChunk - 1; i >= 0; i--) this.free.push(index * this.perChunk + i);
  }
}

/** One pool for each length and width the histograms ask for. */
export class CounterPools {
  private readonly pools = new Map<number, CounterPool>();

  pool(width: CounterWidth, length: number): CounterPool {
    const key = length * 8 + width;
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = new CounterPool(width, length);
      this.pools.set(key, pool);
    }
    return pool;
  }
}
