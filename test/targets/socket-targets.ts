// Raw TCP and TLS targets on 127.0.0.1: services that greet with a banner (text or binary),
// stay silent, or hang up at once, and a TLS endpoint that only completes handshakes.
import { createServer as createTcp, type Server, type Socket } from 'node:net';
import { createServer as createTls, TLSSocket } from 'node:tls';
import type { KeyPair } from './certs.ts';
import { listen, loopback } from './ports.ts';

export interface SocketTarget {
  /** tcp://127.0.0.1:port or tls://127.0.0.1:port */
  url: string;
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** TLS only: the SNI name of each completed handshake (false = none sent). */
  servernames: (string | false)[];
  close(): Promise<void>;
}

export interface TcpTargetOptions {
  /** Sent on connect (after bannerDelayMs); absent = silent peer that never answers. */
  banner?: string | Buffer;
  bannerDelayMs?: number;
  /** Close the connection right after the banner (or at once, without banner). */
  hangUp?: boolean;
  /** A banner sent in pieces, each after its own pause (a slow or chatty service). */
  pieces?: { afterMs: number; text: string }[];
}

async function serve(server: Server, scheme: 'tcp' | 'tls', onSocket: (s: Socket) => void): Promise<SocketTarget> {
  const sockets = new Set<Socket>();
  const servernames: (string | false)[] = [];
  let connections = 0;
  // Counted on the TCP accept, so a TLS handshake that fails is still a connection.
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined); // probes hang up without ceremony
    socket.on('close', () => sockets.delete(socket));
  });
  server.on(scheme === 'tls' ? 'secureConnection' : 'connection', (socket: Socket) => {
    if (socket instanceof TLSSocket) servernames.push(socket.servername ?? false);
    onSocket(socket);
  });
  server.on('tlsClientError', () => undefined);
  const port = await listen(server);
  return {
    url: `${scheme}://${loopback}:${port}`,
    port,
    connections: () => connections,
    servernames,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function startTcpTarget(options: TcpTargetOptions = {}): Promise<SocketTarget> {
  return serve(createTcp(), 'tcp', (socket) => {
    const greet = (): void => {
      if (socket.destroyed) return;
      if (options.banner !== undefined) socket.write(options.banner);
      if (options.hangUp === true) socket.end();
    };
    const pieces = [...(options.pieces ?? [])];
    const next = (): void => {
      const piece = pieces.shift();
      if (piece === undefined || socket.destroyed) return;
      setTimeout(() => {
        if (socket.destroyed) return;
        socket.write(piece.text);
        next();
      }, piece.afterMs);
    };
    next();
    if (options.bannerDelayMs === undefined) greet();
    else setTimeout(greet, options.bannerDelayMs);
  });
}

/** Completes TLS handshakes with `pair` and then says nothing. */
export function startTlsTarget(pair: KeyPair): Promise<SocketTarget> {
  return serve(createTls({ key: pair.key, cert: pair.cert }), 'tls', (socket) => {
    socket.on('error', () => undefined);
  });
}
