// Loaded into the agent by the bench (NODE_OPTIONS="--import <this file>") when it asks for the
// inside view of memory: every 2 s, V8's own figures go to the file named by BENCH_MEMORY_FILE
// (the main thread's; the probe thread's below), written whole, then renamed, so a reader never
// sees half of it, in the shape of InsideMemory (memory.ts), with the thread's GCs so far (a
// PerformanceObserver of its own 'gc' entries: how many of each kind and their pauses, summed).
// Nothing else: an unref'd timer that never keeps the agent alive, no async hooks, no patched
// modules. Plain JavaScript on purpose: a .ts preload would make Node load its type-stripping
// compiler (WebAssembly, several MB) into an agent that otherwise never needs it.
import { renameSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

// Node loads a preload into every thread it starts, so the agent's probe thread runs this too,
// with a V8 heap of its own: each thread writes its own file (BENCH_MEMORY_THREAD_FILE for the
// probe thread, the agent's only other thread). One file for both gave the figures of whichever
// wrote last.
const file = isMainThread ? process.env.BENCH_MEMORY_FILE : process.env.BENCH_MEMORY_THREAD_FILE;
if (file !== undefined && file !== '') {
  // Each thread's own GCs (a PerformanceObserver sees its own thread's only): scavenges, the final
  // pauses of full GCs, and the rest (incremental marking steps, weak callbacks) on that thread.
  const gc = { scavenges: 0, scavengeMs: 0, fullGcs: 0, fullGcMs: 0, otherMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = entry.detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        gc.scavenges++;
        gc.scavengeMs += entry.duration;
      } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.fullGcs++;
        gc.fullGcMs += entry.duration;
      } else gc.otherMs += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  const write = () => {
    const usage = process.memoryUsage();
    const snapshot = {
      at: Date.now(),
      rss: usage.rss,
      heapUsed: usage.heapUsed,
      heapTotal: usage.heapTotal,
      external: usage.external,
      arrayBuffers: usage.arrayBuffers,
      malloced: getHeapStatistics().malloced_memory,
      spaces: getHeapSpaceStatistics().map((s) => ({
        name: s.space_name,
        used: s.space_used_size,
        size: s.space_size,
      })),
      gc,
    };
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
      renameSync(`${file}.tmp`, file);
    } catch {
      // The bench folder went away: the agent is being stopped.
    }
  };
  setInterval(write, 2_000).unref();
}
