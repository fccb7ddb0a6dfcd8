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

/** Blocks of `length` counters of `width` bytes each, named by a number. */
export class CounterPool {
  private readonly chunks: Counters[] = [];
  private readonly free: number[] = [];
  private taken = 0;
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
    const block = this.free.pop() ?? this.taken++;
    if (Math.floor(block / this.perChunk) === this.chunks.length)
      this.chunks.push(new counterArray[this.width](this.perChunk * this.length));
    return block;
  }

  /** The chunk that holds the block's counters. */
  chunkOf(block: number): Counters {
    const chunk = this.chunks[Math.floor(block / this.perChunk)];
    if (chunk === undefined) throw new Error(`counter block ${block} was never taken`);
    return chunk;
  }

  /** Where the block's first counter is in its chunk. */
  offsetOf(block: number): number {
    return (block % this.perChunk) * this.length;
  }

  /** The block is no longer used: zeroed for the next taker. */
  give(block: number): void {
    const offset = this.offsetOf(block);
    this.chunkOf(block).fill(0, offset, offset + this.length);
    this.free.push(block);
  }

  /** Blocks in use. */
  get used(): number {
    return this.taken - this.free.length;
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
