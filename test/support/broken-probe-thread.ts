// A probe thread script with a bug: it throws on the first runs it is sent, so the thread dies
// with runs in it (probe-thread.ts must lose none of them).
export const brokenProbeThreadEntry = new URL(
  `data:text/javascript,${encodeURIComponent("import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => { throw new Error('probe thread bug'); });")}`,
);
