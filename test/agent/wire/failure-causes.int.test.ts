// The cause of a failed call is read once, where it happens, from the error's code: the window
// and the CLI choose words from it and never parse the text. Real loopback sockets.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src-main/agent/wire/api-client.ts';

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  servers = [];
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

describe('failure causes', () => {
  it('a port nobody listens on: network, refused', async () => {
    const port = await listen(createServer());
    await new Promise((done) => servers.pop()?.close(done));
    const client = createApiClient({ baseUrl: `http://127.0.0.1:${port}`, userAgent: 'test' });
    expect(await client.ping('key')).toMatchObject({ ok: false, error: { kind: 'network', cause: 'refused' } });
    await client.close();
  });

  it('an https address of a plain http server: network, plain-http', async () => {
    const port = await listen(createServer((_req, res) => res.end('hello')));
    const client = createApiClient({ baseUrl: `https://127.0.0.1:${port}`, userAgent: 'test' });
    expect(await client.ping('key')).toMatchObject({ ok: false, error: { kind: 'network', cause: 'plain-http' } });
    await client.close();
  });

  it('an answer other than 200 names the call by its method, the server origin and the path', async () => {
    const port = await listen(
      createServer((_req, res) => {
        res.statusCode = 500;
        res.end();
      }),
    );
    const client = createApiClient({ baseUrl: `http://127.0.0.1:${port}/`, userAgent: 'test' });
    for (let i = 0; i < 2; i++) {
      expect(await client.ping('key')).toMatchObject({
        ok: false,
        error: { status: 500, message: `GET http://127.0.0.1:${port}/api/ping answered 500` },
      });
    }
    await client.close();
  });
});
