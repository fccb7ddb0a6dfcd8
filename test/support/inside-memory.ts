// A made-up snapshot of the bench's memory preload (bench/agent/memory.ts InsideMemory) for the
// bench's unit tests: only the fields a test sets matter; the rest read zero.
import type { GcTotals, InsideMemory } from '../../bench/agent/memory.ts';

export function insideSnapshot(
  at: number,
  gc: GcTotals | undefined,
  spaces: InsideMemory['spaces'] = [],
): InsideMemory {
  return {
    at,
    rss: 0,
    heapUsed: 0,
    heapTotal: 0,
    external: 0,
    arrayBuffers: 0,
    malloced: 0,
    spaces,
    ...(gc === undefined ? {} : { gc }),
  };
}
