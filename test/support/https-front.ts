// An https front for the (plain http) reference server, with a certificate the test chose: the
// reference server as an office would run it, behind a certificate of the office's own CA.
import { request } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { KeyPair } from '../targets/certs.ts';

export interface HttpsFront {
  /** https://127.0.0.1:PORT, a name the certificate holds. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startHttpsFront(backendUrl: string, leaf: KeyPair): Promise<HttpsFront> {
  const backend = new URL(backendUrl);
  const sockets = new Set<Socket>();
  const server: Server = createServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
    const upstream = request(
      { host: backend.hostname, port: backend.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // TLS failures on the agent's side show up here as handshake errors: expected in these tests.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
