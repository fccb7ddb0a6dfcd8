// The listening socket, which can be stopped (closing every open connection, as a crashed or
// unplugged server would) and started again on the same port, so an agent sees an outage and a
// recovery at the same address.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, stopping: AbortSignal) => Promise<void>;

export interface Listener {
  /** The bound port (chosen by the system on the first start when 0 was asked). */
  readonly port: number;
  readonly running: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createListener(host: string, requestedPort: number, handler: Handler): Listener {
  let port = requestedPort;
  let server: Server | undefined;
  let stopping = new AbortController();

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    handler(req, res, stopping.signal).catch((error: unknown) => {
      // A bug in the reference server, not a client error: say so loudly, answer 500.
      console.error('reference-server: request failed:', error);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('internal error in the reference server\n');
      } else res.destroy();
    });
  };

  return {
    get port() {
      return port;
    },
    get running() {
      return server !== undefined;
    },
    async start() {
      if (server) return;
      const next = createServer(serve);
      stopping = new AbortController();
      await new Promise<void>((resolve, reject) => {
        next.once('error', reject);
        next.listen(port, host, () => {
          next.off('error', reject);
          resolve();
        });
      });
      port = (next.address() as AddressInfo).port;
      server = next;
    },
    async stop() {
      const current = server;
      if (!current) return;
      server = undefined;
      stopping.abort();
      const closed = new Promise<void>((resolve) => current.close(() => resolve()));
      current.closeAllConnections();
      await closed;
    },
  };
}
