// The rollups' latency counters live in blocks cut from shared chunks (issue 26: a typed array of
// each histogram's own cost more than its counters). A block must never reach into its
// neighbour's counters, nor come back from the pool with another histogram's counts. Pure.
import { describe, expect, it } from 'vitest';
import { CounterPools, type CounterWidth } from '../../../src-main/agent/store/counter-pools.ts';

describe('counter pools', () => {
  it.each([
    [1, 16],
    [2, 64],
    [4, 448],
    [1, 448],
  ] as [CounterWidth, number][])(
    'blocks of %i-byte counters, %i long, stay apart and come back zeroed',
    (width, length) => {
      const pool = new CounterPools().pool(width, length);
      const fill = (block: number): void => {
        const chunk = pool.chunkOf(block);
        chunk.fill(block + 1, pool.offsetOf(block), pool.offsetOf(block) + length);
      };
      const holds = (block: number): number[] => {
        const chunk = pool.chunkOf(block);
        return [...chunk.subarray(pool.offsetOf(block), pool.offsetOf(block) + length)];
      };
      // Enough blocks for several chunks (8 KB each).
      const blocks = Array.from({ length: 100 }, () => pool.take());
      expect(new Set(blocks).size).toBe(100);
      for (const block of blocks) expect(holds(block)).toEqual(new Array<number>(length).fill(0));
      for (const block of blocks) fill(block);
      for (const block of blocks) expect(holds(block)).toEqual(new Array<number>(length).fill(block + 1));
      // Every third given back: each is taken again, zeroed, and the others keep their counts.
      const given = blocks.filter((_, i) => i % 3 === 0);
      for (const block of given) pool.give(block);
      expect(pool.used).toBe(100 - given.length);
      const again = given.map(() => pool.take());
      expect(new Set(again)).toEqual(new Set(given));
      for (const block of again) expect(holds(block)).toEqual(new Array<number>(length).fill(0));
      for (const block of blocks.filter((_, i) => i % 3 !== 0))
        expect(holds(block)).toEqual(new Array<number>(length).fill(block + 1));
    },
  );

  it('drops a chunk once all its blocks are given back, keeping the last, and fills the place again', () => {
    // 16 one-byte counters: 512 blocks a chunk.
    const pool = new CounterPools().pool(1, 16);
    const blocks = Array.from({ length: 1_536 }, () => pool.take());
    expect(pool.chunksHeld).toBe(3);
    // The middle chunk's blocks, then the first's: both dropped; their counters are gone.
    for (const block of blocks.slice(512, 1_024)) pool.give(block);
    expect(pool.chunksHeld).toBe(2);
    expect(() => pool.chunkOf(blocks[600] ?? 0)).toThrow();
    for (const block of blocks.slice(0, 512)) pool.give(block);
    expect(pool.chunksHeld).toBe(1);
    // The third chunk's blocks still hold what was written.
    const kept = blocks[1_500] ?? 0;
    pool.chunkOf(kept)[pool.offsetOf(kept)] = 9;
    // Taking again uses a dropped place, zeroed, and never a block still taken.
    const again = Array.from({ length: 600 }, () => pool.take());
    expect(again.some((b) => b >= 1_024)).toBe(false);
    for (const block of again) expect(pool.chunkOf(block)[pool.offsetOf(block)]).toBe(0);
    expect(pool.chunkOf(kept)[pool.offsetOf(kept)]).toBe(9);
    expect([pool.used, pool.chunksHeld]).toEqual([512 + 600, 3]);
    // The last chunk is kept even when empty.
    for (const block of [...again, ...blocks.slice(1_024)]) pool.give(block);
    expect([pool.used, pool.chunksHeld]).toEqual([0, 1]);
  });

  it('gives one pool for each length and width', () => {
    const pools = new CounterPools();
    expect(pools.pool(1, 16)).toBe(pools.pool(1, 16));
    expect(pools.pool(2, 16)).not.toBe(pools.pool(1, 16));
    expect(pools.pool(1, 32)).not.toBe(pools.pool(1, 16));
  });
});
