// An HTTP "server" that answers every request with bytes written as given, then closes: for
// responses no real server library would send (a body shorter than its Content-Length, a chunked
// body cut inside a chunk or before its last chunk).
import { createServer, type Socket } from 'node:net';
import { listen, loopback } from './ports.ts';

export interface RawHttpTarget {
  /** Base URL, e.g. http://127.0.0.1:1234 (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

/** Answers a request for a path with `responses[path]` (404 when absent), then ends the connection. */
export async function startRawHttpTarget(responses: Record<string, string | Buffer>): Promise<RawHttpTarget> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      const path = /^[A-Z]+ (\S+)/.exec(head)?.[1] ?? '/';
      socket.end(responses[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    };
    socket.on('data', onData);
  });
  const port = await listen(server);
  return {
    url: `http://${loopback}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
