// The unit project's guard: a pure test that reaches for a socket, a server, a process or a
// thread fails at once with the fix in its message, whichever import style it uses.
import childProcess, { spawn } from 'node:child_process';
import { request } from 'node:http';
import { get } from 'node:https';
import net, { connect, createServer } from 'node:net';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { impureMessage } from './unit-guard.ts';

describe('the unit guard', () => {
  it.each<[string, () => unknown]>([
    ['net.connect', () => connect(1, '127.0.0.1')],
    ['net.createConnection (default import)', () => net.createConnection(1, '127.0.0.1')],
    ['a server listening', () => createServer().listen(0, '127.0.0.1')],
    ['http.request', () => request('http://127.0.0.1:1/')],
    ['https.get', () => get('https://127.0.0.1:1/')],
    ['child_process.spawn', () => spawn('true')],
    ['child_process.execFileSync (default import)', () => childProcess.execFileSync('true')],
    ['a worker thread', () => new Worker('data:text/javascript,0', { eval: false })],
  ])('%s fails with the fix named', async (_name, reach) => {
    await expect(Promise.resolve().then(reach)).rejects.toThrow(impureMessage);
  });

  it('fetch fails with the fix named as its cause', async () => {
    const failure: unknown = await fetch('http://127.0.0.1:2/').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).cause)).toContain(impureMessage);
  });
});
