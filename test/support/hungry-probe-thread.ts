// A probe thread script that needs more memory than a bounded probe thread is given: started with
// a bounded old generation (runtime-v8-flags.ts), it keeps allocating on the first runs it is
// sent, so Node ends it at its heap limit with those runs in it; started with the process's own
// limit, it is the real probe thread. runs/probe-placement.ts must lose none of the runs and
// start the next thread without the bound. A thread's script only: tests name it by its URL.
import { getHeapStatistics } from 'node:v8';
import { probeThreadOldSpaceMb } from '../../src-main/agent/base/runtime-v8-flags.ts';
const { parentPort } = process.getBuiltinModule('node:worker_threads');

/** Far above a bounded thread's heap, far below the test process's. */
const bounded = getHeapStatistics().heap_size_limit < 4 * probeThreadOldSpaceMb * 1024 * 1024;
if (bounded)
  parentPort?.once('message', () => {
    const kept: number[][] = [];
    for (;;) kept.push(Array.from({ length: 10_000 }, (_, i) => i + kept.length));
  });
else await import('../../src-main/agent/probes/probe-thread-entry.ts');
