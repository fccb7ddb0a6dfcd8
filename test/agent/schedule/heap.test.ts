// The scheduler's priority queue holds the checks' entries themselves: an entry's due time changes
// in place, and a removed check leaves the heap at once. Against a plain sorted model, over many
// random adds, moves both ways, removals and pops, the heap must always give the least first and
// keep each item's index right. Pure and seeded.
import { describe, expect, it } from 'vitest';
import { MinHeap } from '../../../src-main/agent/schedule/heap.ts';
import { seededRandom } from '../../support/seeded-random.ts';

interface Item {
  id: number;
  key: number;
  heapAt: number;
}

const less = (a: Item, b: Item): boolean => a.key < b.key || (a.key === b.key && a.id < b.id);
/** The least item, taken out (the heap has no pop: the scheduler moves its top in place). */
function pop(heap: MinHeap<Item>): Item | undefined {
  const top = heap.peek();
  if (top !== undefined) heap.remove(top);
  return top;
}

const least = (items: Iterable<Item>): Item | undefined => {
  let best: Item | undefined;
  for (const item of items) if (best === undefined || less(item, best)) best = item;
  return best;
};

describe('the scheduler heap', () => {
  it('agrees with a plain model over adds, moves either way, removals and pops', () => {
    const random = seededRandom(26);
    const heap = new MinHeap<Item>(less);
    const inHeap = new Set<Item>();
    const all: Item[] = Array.from({ length: 200 }, (_, id) => ({ id, key: 0, heapAt: -1 }));
    let misplaced = 0;
    for (let step = 0; step < 5_000; step++) {
      const item = all[Math.floor(random() * all.length)] as Item;
      const op = random();
      if (op < 0.5) {
        // Added, or moved earlier or later while in.
        item.key = Math.floor(random() * 1_000);
        heap.update(item);
        inHeap.add(item);
      } else if (op < 0.7) {
        heap.remove(item);
        inHeap.delete(item);
      } else {
        const expected = least(inHeap);
        expect(pop(heap)).toBe(expected);
        if (expected !== undefined) inHeap.delete(expected);
      }
      expect(heap.size).toBe(inHeap.size);
      expect(heap.peek()).toBe(least(inHeap));
      for (const x of all) if (x.heapAt >= 0 !== inHeap.has(x)) misplaced++;
    }
    expect(misplaced).toBe(0);
    // Everything left comes out in order.
    const rest = [...inHeap].sort((a, b) => (less(a, b) ? -1 : 1));
    expect(Array.from(rest, () => pop(heap))).toEqual(rest);
  });

  it('forgets every item on clear, so each can be added again', () => {
    const heap = new MinHeap<Item>(less);
    const items = [3, 1, 2].map((key, id) => ({ id, key, heapAt: -1 }));
    for (const item of items) heap.update(item);
    heap.clear();
    expect(heap.size).toBe(0);
    expect(items.map((i) => i.heapAt)).toEqual([-1, -1, -1]);
    for (const item of items) heap.update(item);
    expect([pop(heap), pop(heap), pop(heap)].map((i) => i?.key)).toEqual([1, 2, 3]);
  });
});
