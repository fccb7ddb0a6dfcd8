// The one forward proxy of the tests, on 127.0.0.1, as offices run: CONNECT tunnels and plain
// absolute-form requests, optional basic credentials, a refusal mode, and a routing table that
// maps the destination a client asks for onto a loopback port (what only the proxy can reach: an
// office whose firewall drops direct connections). It never dials anything but 127.0.0.1: a
// destination without a route that is not loopback is answered 502, as is an upstream that fails.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { listen, loopback } from './ports.ts';

export interface ForwardProxyOptions {
  /** Require Proxy-Authorization with these credentials (407 otherwise). */
  credentials?: { user: string; password: string };
  /** Answer every request with this status instead of forwarding (403, 502...). */
  refuseWith?: number;
  /** "host:port" as the client asked → loopback port to connect to instead. */
  routes?: Record<string, number>;
}

export interface ForwardProxy {
  /** http://127.0.0.1:port */
  url: string;
  port: number;
  /** CONNECT targets in arrival order ("host:port"), refused ones included. */
  connects: string[];
  /** Absolute-form request URLs in arrival order, refused ones included. */
  plain: string[];
  close(): Promise<void>;
}

const refusalHeaders = (status: number): string =>
  `${status === 407 ? 'Proxy-Authenticate: Basic realm="office"\r\n' : ''}Content-Length: 0\r\n`;

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const connects: string[] = [];
  const plain: string[] = [];
  const sockets = new Set<Socket | Duplex>();

  const authorized = (req: IncomingMessage): boolean => {
    if (options.credentials === undefined) return true;
    const { user, password } = options.credentials;
    return req.headers['proxy-authorization'] === `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  };
  const refusal = (req: IncomingMessage): number | undefined => {
    if (!authorized(req)) return 407;
    return options.refuseWith;
  };
  /** The loopback port to dial for host:port, or undefined when it may not be dialled. */
  const destination = (host: string, port: number): number | undefined => {
    const routed = options.routes?.[`${host}:${port}`];
    if (routed !== undefined) return routed;
    return host === loopback || host === 'localhost' ? port : undefined;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    plain.push(req.url ?? '');
    const status = refusal(req);
    if (status !== undefined) {
      res.writeHead(status, status === 407 ? { 'proxy-authenticate': 'Basic realm="office"' } : {}).end();
      return;
    }
    const target = new URL(req.url ?? '/');
    const port = destination(target.hostname, Number(target.port === '' ? 80 : target.port));
    if (port === undefined) {
      res.writeHead(502).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = request(
      { host: loopback, port, method: req.method, path: `${target.pathname}${target.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => undefined);
    client.on('close', () => sockets.delete(client));
    const authority = req.url ?? '';
    connects.push(authority);
    const status = refusal(req);
    if (status !== undefined) {
      client.end(`HTTP/1.1 ${status} Refused\r\n${refusalHeaders(status)}\r\n`);
      return;
    }
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
    const port = match === null ? undefined : destination(match[1] ?? '', Number(match[2]));
    if (port === undefined) {
      client.end(`HTTP/1.1 502 Bad Gateway\r\n${refusalHeaders(502)}\r\n`);
      return;
    }
    const upstream = connect({ host: loopback, port });
    sockets.add(upstream);
    upstream.on('error', () => client.end(`HTTP/1.1 502 Bad Gateway\r\n${refusalHeaders(502)}\r\n`));
    upstream.on('close', () => sockets.delete(upstream));
    client.on('close', () => upstream.destroy());
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    url: `http://${loopback}:${port}`,
    port,
    connects,
    plain,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
