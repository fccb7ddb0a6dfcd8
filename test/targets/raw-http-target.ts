// An HTTP "server" that answers every request with bytes written as given, then closes: for
// responses no real server library would send (a body shorter than its Content-Length, a chunked
// body cut inside a chunk or before its last chunk), or in pieces written apart (a head split
// mid-header), and keeping the requests as they arrived.
import { createServer, type Socket } from 'node:net';
import { listen, loopback } from './ports.ts';

export interface RawHttpTarget {
  /** Base URL, e.g. http://127.0.0.1:1234 (no trailing slash). */
  url: string;
  /** Each request as it arrived (its head, and whatever of its body came with it), in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A response: its bytes, or pieces written one after another, each in a later turn of the loop. */
export type RawResponse = string | Buffer | (string | Buffer)[];

async function writePieces(socket: Socket, pieces: (string | Buffer)[]): Promise<void> {
  for (const piece of pieces) {
    socket.write(piece);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  socket.end();
}

/** Answers a request for a path with `responses[path]` (404 when absent), then ends the connection. */
export async function startRawHttpTarget(responses: Record<string, RawResponse>): Promise<RawHttpTarget> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      requests.push(head);
      const path = /^[A-Z]+ (\S+)/.exec(head)?.[1] ?? '/';
      const response = responses[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n';
      socket.setNoDelay(true);
      if (Array.isArray(response)) void writePieces(socket, response);
      else socket.end(response);
    };
    socket.on('data', onData);
  });
  const port = await listen(server);
  return {
    url: `http://${loopback}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
