// When the agent gives a burst's memory back (heap-release.ts): after a full GC that leaves the
// heap well below the highest it has been, once for each new high. Pure.
import { describe, expect, it } from 'vitest';
import {
  afterFullGc,
  freshHigh,
  releaseMarginBytes,
  type HeapHigh,
} from '../../../src-main/agent/base/heap-release.ts';

const mb = 1024 * 1024;

/** Feeds the heap totals of successive full GCs; answers after which of them a release ran. */
function releasesAfter(totalsMb: readonly number[], margin = releaseMarginBytes): number[] {
  let high: HeapHigh = freshHigh;
  const at: number[] = [];
  totalsMb.forEach((total, i) => {
    const [next, release] = afterFullGc(high, total * mb, margin);
    high = next;
    if (release) at.push(i);
  });
  return at;
}

describe('giving back the memory of a burst', () => {
  it('never runs while the heap grows, as an agent starting up', () => {
    expect(releasesAfter([4, 8, 12, 20, 28, 32, 33])).toEqual([]);
  });

  it('never runs for a swing of the heap that stays within the margin below its high', () => {
    expect(releasesAfter([32, 33.5, 31.7, 34.9, 32.2, 31.9, 33.7, 31.1])).toEqual([]);
  });

  it('runs once the heap has fallen past the margin below its high, and only once for it', () => {
    // A 3 s stall at 1,000 checks: the heap to 37.7 MB, then back to its working size.
    expect(releasesAfter([32, 34, 37.7, 35, 32, 31.5, 30, 33, 36])).toEqual([4]);
  });

  it('runs again only after the heap has climbed past its high', () => {
    expect(releasesAfter([32, 38, 30, 37.9, 30, 40, 31])).toEqual([2, 6]);
  });

  it('holds at the margin itself', () => {
    expect(releasesAfter([20, 16, 15.99], 4 * mb)).toEqual([2]);
  });
});
