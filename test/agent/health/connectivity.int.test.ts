import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createConnectivity, tcpAnswers, type Endpoint } from '../../../src-main/agent/health/connectivity.ts';
import { closedPort, listen, loopback, startSilentPort, type SilentPort } from '../../targets/index.ts';

describe('connectivity targets', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function listening(): Promise<Endpoint> {
    const server = createServer((socket) => socket.destroy());
    const port = await listen(server);
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return { host: loopback, port };
  }

  async function silent(): Promise<Endpoint> {
    const port: SilentPort = await startSilentPort();
    closers.push(() => port.close());
    return { host: loopback, port: port.port };
  }

  it.each([
    { name: 'a listener answers', target: listening, answers: true },
    {
      name: 'a refusal is an answer: the network works',
      target: async () => ({ host: loopback, port: await closedPort() }),
      answers: true,
    },
    { name: 'a full accept queue is no answer', target: silent, answers: false },
  ])('$name', async ({ target, answers }) => {
    expect(await tcpAnswers(await target(), 300)).toBe(answers);
  });

  it('counts an answer that arrived while this process was stalled past the timeout', async () => {
    const target = await listening();
    const verdict = tcpAnswers(target, 50);
    // The agent's thread held up (a long commit, a loaded machine): the kernel completes the
    // connect meanwhile, and the timeout and the connect are both due when the loop next runs.
    const until = performance.now() + 200;
    while (performance.now() < until);
    expect(await verdict).toBe(true);
  });

  it('never reuses a verdict taken before the failure it classifies', async () => {
    let now = 1_000;
    const targets: Endpoint[] = [await silent()];
    const connectivity = createConnectivity({ targets: () => targets, timeoutMs: 200, monotonic: () => now });
    expect(await connectivity.probe(now)).toBe('offline');
    // Connectivity returns; a run that failed after that must not get the stale "offline".
    targets.splice(0, 1, await listening());
    now += 1;
    expect(await connectivity.probe(now)).toBe('online');
    // A failure from before that probe may share it.
    expect(await connectivity.probe(now - 1)).toBe('online');
  });

  it('lets failures during a probe that began before them wait for a fresh one', async () => {
    let now = 1_000;
    const targets: Endpoint[] = [await silent()];
    const connectivity = createConnectivity({ targets: () => targets, timeoutMs: 300, monotonic: () => now });
    const early = connectivity.probe(now);
    now += 1;
    targets.splice(0, 1, await listening());
    const late = connectivity.probe(now);
    expect(await early).toBe('offline');
    expect(await late).toBe('online');
  });
});
