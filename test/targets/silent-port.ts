// "No answer at all" on loopback: a listener whose accept queue is full. The listener lives in a
// child process that is stopped (SIGSTOP) right after it listens, so nothing ever accepts; once
// its small queue is filled, further connects get no SYN-ACK and hang until their own timeout.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { loopback } from './ports.ts';

export interface SilentPort {
  port: number;
  /** Ends the listener: the port is free again (and then refuses). */
  close(): Promise<void>;
}

const listener = `
const server = require('node:net').createServer();
server.listen({ port: Number(process.argv[1]), host: '${loopback}', backlog: 1 }, () => process.stdout.write(String(server.address().port) + '\\n'));
`;

/** Connects until one hangs: the queue is full from then on. Returns the sockets to keep. */
async function fillQueue(port: number): Promise<Socket[]> {
  const held: Socket[] = [];
  for (let i = 0; i < 16; i++) {
    const socket = connect({ host: loopback, port });
    socket.on('error', () => undefined);
    held.push(socket);
    const connected = await new Promise<boolean>((resolve) => {
      let done = false;
      socket.once('connect', () => {
        done = true;
        clearTimeout(timer);
        resolve(true);
      });
      // A dropped SYN is only seen as time passing. The verdict waits one more turn of the event
      // loop (setImmediate runs after I/O), so a handshake that completed while a starved loop
      // was busy is still counted as connected, not taken for a full queue.
      const timer = setTimeout(() => setImmediate(() => done || resolve(false)), 300);
    });
    if (!connected) return held;
  }
  throw new Error('the accept queue never filled');
}

/** A silent listener on `port` (0 = any free one), e.g. the port of a stopped reference server. */
export async function startSilentPort(port = 0): Promise<SilentPort> {
  const child = spawn(process.execPath, ['-e', listener, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const bound = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`silent listener exited with ${code ?? 'a signal'}`)));
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
  });
  child.kill('SIGSTOP');
  const held = await fillQueue(bound);
  return {
    port: bound,
    close: async () => {
      for (const socket of held) socket.destroy();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
