// Probes in a thread of their own, for when the main thread cannot keep up: past a couple of
// thousand runs a second it is full, each run's connect, answer and close waking it next to the
// commits, uploads and scheduling. Here the thread does only the probes and the main thread the
// rest. Below that one thread is cheaper, so probe-placement.ts uses this only from
// probeThreadFromRunsPerSec (defaults.ts; figures in docs/architecture.md, issue 14).
import type { EventLoopUtilization } from 'node:perf_hooks';
import { extname } from 'node:path';
import { localFaultOf } from '../base/local-fault.ts';
import { probeThreadSemiSpaceMb, startThreadWithHeap } from '../base/runtime-v8-flags.ts';
import type { CheckDefinition } from '../wire/schemas.ts';
import { cancelledError } from './errors.ts';
import { runProbe } from './index.ts';
import { follow } from './run.ts';
import type { Probe, ProbeContext, ProbeOutcome } from './types.ts';
const { fileURLToPath } = process.getBuiltinModule('node:url');
const { Worker } = process.getBuiltinModule('node:worker_threads');

/** The network settings a run in the thread uses: plain data, sent again only when they change. */
export type ThreadNetwork = Pick<ProbeContext, 'ca' | 'proxy' | 'egressPolicy'>;

export interface ThreadRun {
  id: number;
  def: CheckDefinition;
  sampleChars: number | undefined;
  /** Runs stopped by the same caller signal share a key (0: no signal); see ToThread.stop. */
  stopKey: number;
}

/** One message to the thread: the runs started in one turn of the event loop. */
export interface ToThread {
  network?: ThreadNetwork;
  runs: ThreadRun[];
  /** Caller signals that aborted: every run with that key is cancelled. */
  stop: number[];
}

/** One message back: the outcomes finished in one turn of the thread's event loop. */
export interface FromThread {
  outcomes: [id: number, outcome: ProbeOutcome][];
}

export interface ProbeThread {
  /** Runs the probe in the thread. The context must be portable (see `portable`). */
  probe: Probe;
  /** Runs handed over and not back yet. */
  inFlight(): number;
  /**
   * The share of the time since the previous call (or its first answer) the thread's event loop was
   * busy; 0 until it has answered.
   */
  busyShare(): number;
  /** Ends the thread; a run still in it comes back cancelled. */
  close(): Promise<void>;
}

/**
 * Why a thread stopped on its own: it outgrew the old generation it was started with (Node ends
 * such a thread, not the process), or it failed (a bug).
 */
export type ThreadLoss = { kind: 'out-of-memory'; reason: Error } | { kind: 'failed'; reason: Error };

export interface ProbeThreadOptions {
  /** The thread stopped on its own: its runs were started again here. */
  onLost: (loss: ThreadLoss) => void;
  /** The thread's old generation in MB; undefined: the process's own limit. */
  oldSpaceMb?: number | undefined;
  /** The thread's script; tests give ones that fail or outgrow their memory. */
  entry?: URL;
}

// Node ends a thread at its heap limit with ERR_WORKER_OUT_OF_MEMORY, one of the memory faults
// base/local-fault.ts knows.
const lossOf = (failure: Error | undefined, code: number): ThreadLoss =>
  failure !== undefined && localFaultOf(failure) === 'memory'
    ? { kind: 'out-of-memory', reason: failure }
    : { kind: 'failed', reason: failure ?? new Error(`the probe thread exited with code ${code}`) };

/**
 * Whether a context can cross to the thread. Injected clocks and resolvers (tests, the demo) are
 * functions, which cannot: such runs stay in the calling thread.
 */
export const portable = (ctx: ProbeContext): boolean =>
  ctx.now === undefined && ctx.wallClock === undefined && ctx.resolve === undefined;

/**
 * The thread's name, which Node gives its operating-system thread too: `top -H`, `perf` and the
 * bench (bench/agent/proc-stats.ts) tell it from V8's and libuv's threads by it. At most 15
 * characters, the kernel's limit for a thread's name.
 */
export const probeThreadName = 'probe-thread';

// The script sits beside this module, as .ts when run from source and .js when built.
const defaultEntry = new URL(`./probe-thread-entry${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

const cancelled = (): ProbeOutcome => ({
  success: false,
  httpStatus: 0,
  latencyMs: 0,
  answered: false,
  decidedBy: 'cancelled',
  error: cancelledError,
  responseSample: '',
  cancelled: true,
});

/**
 * An outcome crosses as a copy, with its own copy of the rule and kind names. The last run of
 * every check is kept (read/last-runs.ts), so those copies were two strings a check that
 * say what one string says (~0.4 MB at 6,000 checks): the names are taken from one table. The
 * table holds the names the probes give, a handful (DecidingRule, SampleKind).
 */
const names = new Map<string, string>();
function sharedName<T extends string>(name: T): T {
  const known = names.get(name) as T | undefined;
  if (known !== undefined) return known;
  names.set(name, name);
  return name;
}
function withSharedNames(outcome: ProbeOutcome): ProbeOutcome {
  outcome.decidedBy = sharedName(outcome.decidedBy);
  if (outcome.sampleKind !== undefined) outcome.sampleKind = sharedName(outcome.sampleKind);
  return outcome;
}

interface Pending {
  def: CheckDefinition;
  ctx: ProbeContext;
  settle: (outcome: ProbeOutcome | Promise<ProbeOutcome>) => void;
}

export function createProbeThread(options: ProbeThreadOptions): ProbeThread {
  const worker = startThreadWithHeap(
    { semiSpaceMb: probeThreadSemiSpaceMb, oldSpaceMb: options.oldSpaceMb },
    () => new Worker(options.entry ?? defaultEntry, { name: probeThreadName }),
  );
  // Never what keeps the process alive: the agent closes it, and a stray one must not hang exit.
  worker.unref();
  const pending = new Map<number, Pending>();
  const stopKeys = new WeakMap<AbortSignal, number>();
  let nextId = 1;
  let nextStopKey = 1;
  let sent: ThreadNetwork | undefined;
  let outgoing: ToThread = { runs: [], stop: [] };
  let flushQueued = false;
  let state: 'open' | 'closing' | 'lost' = 'open';
  // The thread's loop is measured from its first answer on: before it, the loop's time is the
  // thread loading its modules (a few hundred ms, all of it busy), not runs, and counted as runs
  // it halved the run cap at every thread start (runs/run-cap.ts).
  let loopTotals: EventLoopUtilization | undefined;

  // The scheduler starts the runs due together in one loop: they cross in one message.
  function flush(): void {
    flushQueued = false;
    const message = outgoing;
    if (message.runs.length === 0 && message.stop.length === 0 && message.network === undefined) return;
    outgoing = { runs: [], stop: [] };
    if (state === 'open') worker.postMessage(message);
  }
  function queueFlush(): void {
    if (flushQueued) return;
    flushQueued = true;
    queueMicrotask(flush);
  }

  function stopKeyOf(signal: AbortSignal | undefined): number {
    if (signal === undefined) return 0;
    const known = stopKeys.get(signal);
    if (known !== undefined) return known;
    const assigned = nextStopKey++;
    stopKeys.set(signal, assigned);
    // One listener per caller signal, however many runs follow it (see follow in run.ts).
    follow(signal, () => {
      outgoing.stop.push(assigned);
      queueFlush();
    });
    return assigned;
  }

  /** Sends the network settings when a field is no longer the same object (they change rarely). */
  function networkFor(ctx: ProbeContext): void {
    if (sent !== undefined && sent.ca === ctx.ca && sent.proxy === ctx.proxy && sent.egressPolicy === ctx.egressPolicy)
      return;
    sent = { ca: ctx.ca, proxy: ctx.proxy, egressPolicy: ctx.egressPolicy };
    // Runs already queued keep the settings they were started with.
    if (outgoing.runs.length > 0) flush();
    outgoing.network = sent;
  }

  worker.on('message', (message: FromThread) => {
    loopTotals ??= worker.performance.eventLoopUtilization();
    for (const [id, outcome] of message.outcomes) {
      const run = pending.get(id);
      if (run === undefined) continue;
      pending.delete(id);
      run.settle(withSharedNames(outcome));
    }
  });
  let failure: Error | undefined;
  worker.on('error', (error: Error) => {
    failure = error;
  });
  worker.on('exit', (code) => {
    if (state !== 'open') return;
    state = 'lost';
    // Nothing it held is lost: each run starts again here, with the signal it was given.
    for (const run of pending.values()) run.settle(runProbe(run.def, run.ctx));
    pending.clear();
    options.onLost(lossOf(failure, code));
  });

  return {
    probe(def, ctx) {
      if (state === 'lost') return runProbe(def, ctx);
      if (state === 'closing' || ctx.signal?.aborted === true) return Promise.resolve(cancelled());
      networkFor(ctx);
      const id = nextId++;
      outgoing.runs.push({ id, def, sampleChars: ctx.sampleChars, stopKey: stopKeyOf(ctx.signal) });
      queueFlush();
      return new Promise<ProbeOutcome>((settle) => {
        pending.set(id, { def, ctx, settle });
      });
    },
    inFlight: () => pending.size,
    busyShare() {
      if (loopTotals === undefined) return 0; // not answered yet: see loopTotals
      const totals = worker.performance.eventLoopUtilization();
      const { utilization } = worker.performance.eventLoopUtilization(totals, loopTotals);
      loopTotals = totals;
      // No time measured since the last reading: nothing says it is busy.
      return Number.isFinite(utilization) ? utilization : 0;
    },
    async close() {
      if (state !== 'open') return;
      state = 'closing';
      for (const run of pending.values()) run.settle(cancelled());
      pending.clear();
      await worker.terminate();
    },
  };
}
