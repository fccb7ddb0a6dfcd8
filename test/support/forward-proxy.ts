// A small forward proxy on loopback, as offices run: CONNECT tunnels and plain absolute-form
// requests, optionally behind basic credentials, or refusing every tunnel with a chosen status.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxyOptions {
  /** "user:password" the proxy demands (407 without it). */
  credentials?: string;
  /** Answer every CONNECT with this status instead of tunnelling (403, 502...). */
  refuseWith?: number;
  /**
   * "host:port" asked for → "host:port" dialled: what only the proxy can reach (an office whose
   * firewall drops direct connections to the server).
   */
  upstreams?: Record<string, string>;
}

export interface ForwardProxy {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** "CONNECT host:port" or "GET http://..." per request seen, in order. */
  readonly seen: string[];
  close(): Promise<void>;
}

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const expected =
    options.credentials === undefined ? undefined : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const authorised = (req: IncomingMessage): boolean =>
    expected === undefined || req.headers['proxy-authorization'] === expected;

  const server: Server = createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    if (!authorised(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="office"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url ?? ''}`);
    if (!authorised(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="office"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    if (options.refuseWith !== undefined) {
      client.end(`HTTP/1.1 ${options.refuseWith} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const asked = req.url ?? '';
    const [host, port] = (options.upstreams?.[asked] ?? asked).split(/:(?=\d+$)/);
    const upstream = connect({ host: host?.replace(/^\[|\]$/g, ''), port: Number(port) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
