// A programmable HTTP/HTTPS target on 127.0.0.1 for probe tests, the demo and benches. Routes
// are declared as data (status, delay, body, endless body, huge headers, redirects); /echo
// answers with what it received, and the target counts connections to prove fresh ones.
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { KeyPair } from './certs.ts';
import { listen, loopback } from './ports.ts';

export interface RouteSpec {
  /** Default 200 (302 with `redirect`). */
  status?: number;
  /** Wait before sending the response headers. */
  delayMs?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body after this wait (headers go out at once). */
  bodyDelayMs?: number;
  /** Stream body chunks until the client goes away. */
  endless?: boolean;
  /** Add one response header of this many bytes. */
  hugeHeaderBytes?: number;
  /** Location to redirect to. */
  redirect?: string;
  /** Answer with JSON of the request: { method, path, headers, body }. */
  echo?: boolean;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;
export type Route = RouteSpec | RouteHandler;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface HttpTarget {
  /** Base URL, e.g. http://127.0.0.1:1234 (no trailing slash). */
  url: string;
  port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** HTTPS only: handshakes that resumed an earlier TLS session (a probe must never). */
  resumedSessions(): number;
  /** Bytes written by endless routes so far. */
  endlessBytes(): number;
  /** Adds or replaces a route. */
  route(path: string, route: Route): void;
  close(): Promise<void>;
}

const endlessChunk = Buffer.alloc(64 * 1024, 'x');

export interface HttpTargetOptions {
  /** Serve HTTPS with this certificate. */
  tls?: KeyPair;
}

export async function startHttpTarget(
  routes: Record<string, Route> = {},
  options: HttpTargetOptions = {},
): Promise<HttpTarget> {
  const table = new Map<string, Route>([['/echo', { echo: true }], ...Object.entries(routes)]);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let endlessBytes = 0;
  let resumedSessions = 0;

  const serve = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const path = req.url ?? '/';
    const recorded = { method: req.method ?? '', path, headers: req.headers, body: body.toString('utf8') };
    requests.push(recorded);
    const route = table.get(path.split('?')[0] ?? path) ?? { status: 404, body: 'not found' };
    if (typeof route === 'function') {
      route(req, res, body);
      return;
    }
    const respond = (): void => {
      if (res.destroyed) return;
      const status = route.status ?? (route.redirect === undefined ? 200 : 302);
      const headers: Record<string, string> = { ...route.headers };
      if (route.redirect !== undefined) headers.location = route.redirect;
      if (route.hugeHeaderBytes !== undefined) headers['x-huge'] = 'h'.repeat(route.hugeHeaderBytes);
      if (route.echo === true) headers['content-type'] = 'application/json';
      res.writeHead(status, headers);
      if (route.endless === true) {
        const pump = (): void => {
          while (!res.destroyed) {
            endlessBytes += endlessChunk.length;
            if (!res.write(endlessChunk)) {
              res.once('drain', pump);
              return;
            }
          }
        };
        pump();
        return;
      }
      const payload = route.echo === true ? JSON.stringify(recorded) : (route.body ?? '');
      if (route.bodyDelayMs === undefined) {
        res.end(payload);
        return;
      }
      res.flushHeaders(); // headers now, body later
      setTimeout(() => res.end(payload), route.bodyDelayMs);
    };
    if (route.delayMs === undefined) respond();
    else setTimeout(respond, route.delayMs);
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => serve(req, res, Buffer.concat(chunks)));
  };
  const server: Server = options.tls === undefined ? createHttp(handler) : createHttps({ ...options.tls }, handler);
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.isSessionReused()) resumedSessions += 1;
  });
  // A probe that hangs up mid-handshake or mid-body is expected here, not a test failure.
  server.on('tlsClientError', () => undefined);
  const port = await listen(server);
  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://${loopback}:${port}`,
    port,
    connections: () => connections,
    requests,
    resumedSessions: () => resumedSessions,
    endlessBytes: () => endlessBytes,
    route: (path, route) => table.set(path, route),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
