// The probe thread's script (probe-thread.ts): runs the probes it is sent, sends the outcomes back.
import { runProbe } from './index.ts';
import type { FromThread, ThreadNetwork, ThreadRun, ToThread } from './probe-thread.ts';
import type { ProbeOutcome } from './types.ts';
const { parentPort } = process.getBuiltinModule('node:worker_threads');

const port = parentPort;
if (port === null) throw new Error('probe-thread-entry.ts is a worker script: start it with createProbeThread');

let network: ThreadNetwork = {};
/** One controller per caller signal (its stop key), not per run. */
const stops = new Map<number, AbortController>();
let outgoing: FromThread['outcomes'] = [];
let flushQueued = false;

// Outcomes finished in one turn of the loop go back in one message.
function flush(): void {
  flushQueued = false;
  const outcomes = outgoing;
  outgoing = [];
  port?.postMessage({ outcomes } satisfies FromThread);
}

function done(id: number, outcome: ProbeOutcome): void {
  outgoing.push([id, outcome]);
  if (flushQueued) return;
  flushQueued = true;
  setImmediate(flush);
}

function signalFor(key: number): AbortSignal | undefined {
  if (key === 0) return undefined;
  let stop = stops.get(key);
  if (stop === undefined) {
    stop = new AbortController();
    stops.set(key, stop);
  }
  return stop.signal;
}

function start(run: ThreadRun): void {
  const signal = signalFor(run.stopKey);
  // runProbe never rejects: every problem is a failed outcome.
  void runProbe(run.def, {
    ...network,
    ...(signal === undefined ? {} : { signal }),
    ...(run.sampleChars === undefined ? {} : { sampleChars: run.sampleChars }),
  }).then((outcome) => done(run.id, outcome));
}

port.on('message', (message: ToThread) => {
  if (message.network !== undefined) network = message.network;
  for (const run of message.runs) start(run);
  for (const key of message.stop) {
    // Without a reason, as the scheduler aborts its signal: the run gives the same cancelled outcome.
    stops.get(key)?.abort();
    stops.delete(key);
  }
});
