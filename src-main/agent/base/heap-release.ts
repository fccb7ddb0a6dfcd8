// Giving back the memory of a burst (issue 26). V8 keeps the pages a GC frees in a pool for the
// pages it needs next and returns them to the system only in a GC that reduces memory, which its
// memory reducer starts when a program allocates little: never at 1,000 runs a second, and the
// agent turns the reducer off besides (the command's first line, for its cost at rest). So after
// a burst (a stall, a machine back from sleep: thousands of runs due at once) the agent kept the
// burst's pages for the rest of its life: a 3 s stop of an agent at 1,000 checks left RSS 3.9 and
// 7.0 MB up for good (two soaks), and the soaks that missed "flat over 30 minutes" each held such
// a step (docs/performance.md, "`npm run bench:agent`: what each row and column is"). Here the
// main thread watches its own full GCs and, once one leaves the heap well below the highest it has
// been, runs one memory-reducing GC (53–73 ms in a bench's rows): the pool goes back to the system,
// the part the agent works in as well, which it then regrows over minutes; the burst's step does
// not come back (docs/architecture.md, "What a burst leaves behind", has the figures).
//
// Not on a timer: nothing runs at rest, where full GCs are rare. One release for each new high:
// the heap must climb past its highest before another, so a heap that swings below its high does
// not buy a release at every full GC. The probe thread has none: its old generation is bounded
// (runtime-v8-flags.ts) and its pages are the runs in flight.
import type { PerformanceObserver as Observer } from 'node:perf_hooks';
import type { Logger } from './log.ts';

const { PerformanceObserver, constants } = process.getBuiltinModule('node:perf_hooks');
const { getHeapStatistics, setFlagsFromString } = process.getBuiltinModule('node:v8');
const { runInNewContext } = process.getBuiltinModule('node:vm');

/**
 * How far below its highest a full GC must leave the heap's total before a release: wide enough
 * that a steady agent buys few (its total, read every 5 s, swings 31.4–35.7 MB at 1,000 checks;
 * how many ran in benches and soaks: docs/architecture.md, "What a burst leaves behind"), narrow
 * enough for a 3 s stall's high (37.7 MB).
 */
export const releaseMarginBytes = 4 * 1024 * 1024;

/** The highest heap total seen, and whether the release for it has run. */
export interface HeapHigh {
  highBytes: number;
  released: boolean;
}

export const freshHigh: HeapHigh = { highBytes: 0, released: true };

/**
 * After a full GC that left the heap's total at totalBytes: the next state, and whether to give
 * the pool back now. Pure.
 */
export function afterFullGc(high: HeapHigh, totalBytes: number, marginBytes = releaseMarginBytes): [HeapHigh, boolean] {
  if (totalBytes > high.highBytes) return [{ highBytes: totalBytes, released: false }, false];
  if (!high.released && totalBytes < high.highBytes - marginBytes) return [{ ...high, released: true }, true];
  return [high, false];
}

/** V8's own gc(): a full GC unless told otherwise. */
export type Gc = (options?: {
  type?: 'major' | 'minor';
  execution?: 'sync' | 'async';
  flavor?: 'regular' | 'last-resort';
}) => void;

/**
 * V8's own gc(), read from a new context once --expose-gc is set (as Jest's leak detector reads
 * it): the main context's globalThis never gets it. Also what the benches use to read a settled
 * heap (bench/rollups.ts).
 */
export function exposedGc(): Gc {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Gc;
}

/** What a release did, for the log. */
export interface Release {
  ms: number;
  rssBefore: number;
  rssAfter: number;
}

/**
 * Watches the calling thread's full GCs and gives the pool back after a burst; answers the
 * function that stops it. onRelease hears of each release after it ran.
 */
function watchHeapHigh(onRelease: (release: Release) => void): () => void {
  const gc = exposedGc();
  let high = freshHigh;
  let pending: NodeJS.Immediate | undefined;
  const release = (): void => {
    pending = undefined;
    const rssBefore = process.memoryUsage.rss();
    const start = performance.now();
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    onRelease({ ms: performance.now() - start, rssBefore, rssAfter: process.memoryUsage.rss() });
  };
  const observer: Observer = new PerformanceObserver((list) => {
    const major = list
      .getEntries()
      .some((e) => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!major) return;
    // The release's own GCs reach here too, after it: they leave the heap lower still, and the
    // release for this high has run.
    const [next, now] = afterFullGc(high, getHeapStatistics().total_heap_size);
    high = next;
    // Not inside the observer's callback, which runs as the GC's news is delivered: on its own turn.
    if (now) pending ??= setImmediate(release);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    if (pending !== undefined) clearImmediate(pending);
  };
}

const listeners = new Set<(release: Release) => void>();
let stopWatching: (() => void) | undefined;

/**
 * While probing runs (runs/probing.ts): one watch for the process however many agents it hosts
 * (tests start several), started with the first, stopped with the last. Each release is logged
 * (debug) to each agent's log. Answers the function that ends this agent's part.
 */
export function giveBackAfterBursts(log: Logger): () => void {
  const listener = ({ ms, rssBefore, rssAfter }: Release): void =>
    log.debug({ ms: Math.round(ms), rssBefore, rssAfter }, 'gave the memory of a burst of work back to the system');
  listeners.add(listener);
  stopWatching ??= watchHeapHigh((release) => {
    for (const each of listeners) each(release);
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      stopWatching?.();
      stopWatching = undefined;
    }
  };
}
