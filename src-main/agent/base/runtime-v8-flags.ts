// The V8 flags the agent sets for its whole process once it runs (the probe thread included: V8's
// flags are per process), and the young generation it gives the probe thread alone as the thread
// starts. Only flags V8 reads while it runs belong here; those it reads when it starts the process
// (heap sizes, compile threads, the memory reducer) are on the command's first line
// (src-main/cli/main.ts) and in the desktop app's launch flags, kept equal by
// test/electron/v8-flags.test.ts.
import type { Worker } from 'node:worker_threads';

const { setFlagsFromString } = process.getBuiltinModule('node:v8');

/**
 * --no-allocation-site-pretenuring (issue 26). V8 learns for each allocation site whether its
 * objects outlive a young-generation GC and, once most do, allocates them straight in the old
 * generation. At 1,000 runs a second ~660 sites were so tenured within 30 s
 * (--trace-pretenuring-statistics): objects that live a few hundred ms (a result waiting for its
 * commit, a check's last run) and then die in the old generation, where they also keep every
 * young object they point to alive until the next full GC, which promotes those in turn.
 * Measured at 1,000 checks (bench/agent, v8.GCProfiler over 15 s, two runs of each): promoted
 * 4.7-5.0 -> 1.8 MB a second, full GCs 1.8 -> 0.5 a second, a scavenge 1.7-2.0 -> 0.9-1.2 ms;
 * CPU per probe 0.459 -> 0.409 ms (npm run bench:flags, 3 interleaved rounds), the same RSS.
 */
export const runtimeV8Flags = ['--no-allocation-site-pretenuring'] as const;

/** Sets runtimeV8Flags; idempotent, so every agent the process creates may call it. */
export function applyRuntimeV8Flags(): void {
  for (const flag of runtimeV8Flags) setFlagsFromString(flag);
}

/**
 * The probe thread's semi-spaces (issue 26): 4 MB, where the process has 2 (the command's first
 * line, for the main thread's memory at 20 and 1,000 checks; the thread runs only from
 * probeThreadFromRunsPerSec). The thread allocates ~30 KB a run (Node's HTTP client, streams,
 * promises), and what its young generation must hold is the runs in flight. With the scheduler's
 * full cap of 256 always in flight at saturation (~100 ms each), 2 MB and 4 MB let them outlive two
 * scavenges and be promoted: 2-7 full GCs a second in the thread, and 8 MB was needed (6,000
 * checks: 2,852-3,422 -> 4,103-4,113 runs a second, 0.35-0.42 -> 0.28-0.29 ms CPU a run). Since
 * the cap follows the thread's load (runs/run-cap.ts: 64 while it is busy), 4 MB holds them:
 * eight interleaved rounds of bench:flags at 6,000 checks, against 8 MB with a fixed cap of 256,
 * 3,768-5,316 (mean 4,735) against 4,112-5,445 (4,782) runs a second, 0.228 against 0.237 ms CPU
 * a run, RSS 160.5-166.4 (mean 162.9) against 170.5-173.4 (171.5) MB. The cap alone with 8 MB
 * saved ~3 MB; with the cap, 2 MB saved ~4 MB more but ran 4,556-4,961 runs a second against
 * 4,872-5,023 (two rounds), and 3 MB 4,350-4,380.
 */
export const probeThreadSemiSpaceMb = 4;

/**
 * The probe thread's old generation (issue 26): at most 24 MB, where the process allows 256 (the
 * command's first line: the main thread parses a sync answer of up to 128 MB, wire/limits.ts).
 * V8 lets an old generation grow by at least 8 MB past what the last full GC kept, and never past
 * halfway from there to its limit; the thread keeps ~5-6 MB live at saturation (its runs in
 * flight, its code), so with the process's limit its old generation swung between ~7 and ~14 MB
 * used in 14.4-16.9 MB of pages, and with 24 MB between ~7 and ~10 in ~10 (the memory preload,
 * 6,000 checks). Six rounds alternating at 6,000 checks (30 s warm-up, 30 s window): RSS
 * 148.4-151.2 (mean 149.8) against 152.7-155.5 (153.65) MB, 4,269-5,505 (mean 4,783) against
 * 4,159-5,310 (4,745) runs a second; 20 MB saved ~2 MB more but ran fewer runs a second in three
 * rounds of four, 16 MB a quarter fewer in one (full GCs; docs/performance.md "The probe thread
 * near saturation"). 256 runs of a 200 KB page landing at once fit in 16 MB; with ~54 KB of
 * cookies each as well they outgrow 24 MB, and a thread that outgrows it is started again
 * without it (runs/probe-placement.ts).
 */
export const probeThreadOldSpaceMb = 24;

/** A thread's heap: its semi-spaces, and its old generation (undefined: the process's own limit). */
export interface ThreadHeap {
  semiSpaceMb: number;
  oldSpaceMb?: number | undefined;
}

const heapFlags = {
  semiSpace: { pattern: /--max[-_]semi[-_]space[-_]size=(\d+)/g, name: '--max-semi-space-size' },
  oldSpace: { pattern: /--max[-_]old[-_]space[-_]size=(\d+)/g, name: '--max-old-space-size' },
} as const;

/**
 * The process's own size in MB for one of V8's heap flags, from where it can be given:
 * NODE_OPTIONS, then Node's command line, then Electron's --js-flags (each later one wins, as in
 * V8). 0 when none set it: V8's own default, sized from the machine's memory.
 */
export function ownHeapFlagMb(flag: keyof typeof heapFlags, sources: readonly string[]): number {
  let mb = 0;
  for (const source of sources) for (const match of source.matchAll(heapFlags[flag].pattern)) mb = Number(match[1]);
  return mb;
}

/** Applies to the isolates V8 creates from now on (the threads started next); 0 is V8's default. */
const setHeapFlagMb = (flag: keyof typeof heapFlags, mb: number): void =>
  setFlagsFromString(`${heapFlags[flag].name}=${mb}`);

const processHeapFlagMb = (flag: keyof typeof heapFlags): number =>
  ownHeapFlagMb(flag, [process.env.NODE_OPTIONS ?? '', ...process.execArgv, ...process.argv]);

/**
 * Starts a thread with the heap given. V8 reads its heap flags when it creates an isolate, and a
 * Worker's resourceLimits cannot set them past the process's flags (the flags win: measured for
 * the semi-spaces, and V8 applies the old generation's flag after the limits too), so the flags
 * are set while the thread starts and set back once it runs (or fails to): the main thread's
 * isolate exists already, and a thread started later gets the process's sizes again
 * (test/agent/probes/probe-thread-heap.int.test.ts).
 */
export function startThreadWithHeap(heap: ThreadHeap, start: () => Worker): Worker {
  const own = { semiSpace: processHeapFlagMb('semiSpace'), oldSpace: processHeapFlagMb('oldSpace') };
  const restore = (): void => {
    setHeapFlagMb('semiSpace', own.semiSpace);
    setHeapFlagMb('oldSpace', own.oldSpace);
  };
  setHeapFlagMb('semiSpace', heap.semiSpaceMb);
  setHeapFlagMb('oldSpace', heap.oldSpaceMb ?? own.oldSpace);
  let worker: Worker;
  try {
    worker = start();
  } catch (error) {
    restore();
    throw error;
  }
  // Once: a thread that exits much later must not set it back while another thread starts.
  const started = (): void => {
    worker.off('online', started);
    worker.off('exit', started);
    restore();
  };
  worker.on('online', started);
  worker.on('exit', started);
  return worker;
}
