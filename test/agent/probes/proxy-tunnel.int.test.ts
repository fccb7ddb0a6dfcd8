// The CONNECT exchange against proxies that misbehave, on real loopback sockets: what each
// failure says, the target's bytes that arrive with the answer, and a run stopped mid-wait.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openTunnel } from '../../../src-main/agent/probes/proxy-tunnel.ts';
import type { Run } from '../../../src-main/agent/probes/types.ts';

/** Just what the tunnel asks of a run: its stop, and no extra CA. */
function fakeRun(): Run & { stop(reason: Error): void } {
  const watchers = new Set<(reason: Error) => void>();
  let reason: Error | undefined;
  return {
    ca: undefined,
    stopped: () => reason !== undefined,
    stopReason: () => reason,
    onStop(fn: (r: Error) => void) {
      if (reason !== undefined) fn(reason);
      else watchers.add(fn);
      return () => watchers.delete(fn);
    },
    stop(r: Error) {
      reason = r;
      for (const fn of watchers) fn(r);
    },
  } as unknown as Run & { stop(reason: Error): void };
}

let server: Server | undefined;
afterEach(() => server?.close());

/** A "proxy" that reads the CONNECT request and then does `answer` with the socket. */
async function proxyDoing(answer: (socket: Socket, request: string) => void): Promise<string> {
  server = createServer((socket) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) answer(socket, text);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://u:p%40ss@127.0.0.1:${address.port}`;
}

describe('openTunnel', () => {
  it('sends one CONNECT with the credentials and hands over the bytes that came with the answer', async () => {
    let seen = '';
    const url = await proxyDoing((socket, request) => {
      seen = request;
      socket.write('HTTP/1.1 200 Connection established\r\n\r\nSSH-2.0-x\r\n');
    });
    const socket = await openTunnel(fakeRun(), url, '2001:db8::1', 22);
    const first = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
    socket.destroy();
    expect(first).toBe('SSH-2.0-x\r\n');
    expect(seen).toMatch(/^CONNECT \[2001:db8::1\]:22 HTTP\/1\.1\r\n/);
    expect(seen.toLowerCase()).toContain('host: [2001:db8::1]:22\r\n');
    const header = (name: string) =>
      seen
        .split('\r\n')
        .find((line) => line.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    expect(header('proxy-authorization')).toBe(`Basic ${Buffer.from('u:p@ss').toString('base64')}`);
    expect(seen.toLowerCase()).not.toContain('connection: close');
  });

  it.each([
    {
      name: 'refuses',
      answer: (s: Socket) => s.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'),
      error: /answered 407 Proxy Authentication Required$/,
    },
    {
      name: 'does not speak HTTP',
      answer: (s: Socket) => s.end('SSH-2.0-OpenSSH\r\n\r\n'),
      error: /did not answer CONNECT with HTTP$/,
    },
    {
      name: 'closes without an answer',
      answer: (s: Socket) => s.end(),
      error: /closed the connection$/,
    },
    {
      name: 'sends an endless header block',
      answer: (s: Socket) => s.end(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`),
      error: /sent an oversized answer to CONNECT$/,
    },
  ])('says so when the proxy $name, without its password', async ({ answer, error }) => {
    const url = await proxyDoing(answer);
    const failure = await openTunnel(fakeRun(), url, 'a.test', 443).then(
      () => new Error('tunnel opened'),
      (err: unknown) => err as Error,
    );
    expect(failure.message).toMatch(error);
    expect(failure.message).not.toContain('p%40ss');
    expect(failure.message).not.toContain('p@ss');
  });

  it('gives the stop reason when the run stops while the proxy is silent', async () => {
    const run = fakeRun();
    let asked!: () => void;
    const connectSeen = new Promise<void>((resolve) => (asked = resolve));
    const url = await proxyDoing(() => asked());
    const tunnel = openTunnel(run, url, 'a.test', 443);
    await connectSeen;
    run.stop(new Error('the run timed out'));
    await expect(tunnel).rejects.toThrow('the run timed out');
  });
});
