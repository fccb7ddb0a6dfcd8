// Loopback port helpers for targets and "connection refused" cases.
import { createServer, type AddressInfo, type Server } from 'node:net';

export const loopback = '127.0.0.1';

/** Listens on a random loopback port and resolves with it. */
export function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, loopback, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** A port that was just listening and is now closed: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
