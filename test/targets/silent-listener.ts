// "No answer at all" on loopback (issue 10 §1): a listener whose accept queue is full. It lives
// in a worker thread that blocks right after listening, so nothing ever accepts; once the
// kernel's queue (backlog + 1) is filled by a few parked connections, further SYNs are dropped
// and a connect hangs until its own timeout, as against a host that does not answer.
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

export interface SilentListener {
  port: number;
  /** tcp://127.0.0.1:port */
  url: string;
  close(): Promise<void>;
}

const workerSource = `
const { createServer } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const server = createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  // Blocks this thread (and with it every accept) until the test releases it.
  Atomics.wait(new Int32Array(workerData), 0, 0);
  process.exit(0);
});
`;

function tryConnect(port: number, waitMs: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, waitMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}

export async function startSilentListener(): Promise<SilentListener> {
  const release = new SharedArrayBuffer(4);
  const worker = new Worker(workerSource, { eval: true, workerData: release });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (p: number) => resolve(p));
    worker.once('error', reject);
  });
  // Park connections until one no longer completes: the queue is full from then on.
  const parked: Socket[] = [];
  for (let i = 0; i < 16; i++) {
    const socket = await tryConnect(port, 300);
    if (socket === undefined) break;
    parked.push(socket);
  }
  return {
    port,
    url: `tcp://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of parked) socket.destroy();
      const view = new Int32Array(release);
      Atomics.store(view, 0, 1);
      Atomics.notify(view, 0);
      await new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    },
  };
}
