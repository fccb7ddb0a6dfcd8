// A binary min-heap whose items know their place in it: the scheduler's one priority queue, keyed
// by due time. A check's entry is itself the item, moved when its due time changes and taken out
// when the check goes. The heap held a slot object per scheduling before, and left the old one
// behind as a stale copy when a check moved or went: one more object a check and one per run
// (~72 bytes each with its boxed due time; issue 26, memory per check).

/** Something the heap can hold: `heapAt` is its index in the heap, -1 while it is not in it. */
export interface HeapItem {
  heapAt: number;
}

export class MinHeap<T extends HeapItem> {
  private readonly items: T[] = [];
  private readonly less: (a: T, b: T) => boolean;

  constructor(less: (a: T, b: T) => boolean) {
    this.less = less;
  }

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  /** Adds the item, or puts it back in order after its key changed. */
  update(item: T): void {
    if (item.heapAt < 0) {
      item.heapAt = this.items.length;
      this.items.push(item);
    }
    this.down(this.up(item.heapAt));
  }

  /** Takes the item out, if it is in. */
  remove(item: T): void {
    if (item.heapAt >= 0 && this.items[item.heapAt] === item) this.removeAt(item.heapAt);
  }

  clear(): void {
    for (const item of this.items) item.heapAt = -1;
    this.items.length = 0;
  }

  private removeAt(i: number): void {
    const items = this.items;
    const item = items[i] as T;
    const last = items.pop() as T;
    item.heapAt = -1;
    if (last === item) return;
    items[i] = last;
    last.heapAt = i;
    this.down(this.up(i));
  }

  /** Moves the item at i towards the root while it is less than its parent; returns where it ends. */
  private up(i: number): number {
    const items = this.items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i] as T, items[parent] as T)) break;
      this.swap(i, parent);
      i = parent;
    }
    return i;
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && this.less(items[l] as T, items[m] as T)) m = l;
      if (r < items.length && this.less(items[r] as T, items[m] as T)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const items = this.items;
    const a = items[i] as T;
    const b = items[j] as T;
    items[i] = b;
    items[j] = a;
    a.heapAt = j;
    b.heapAt = i;
  }
}
