// Setup module of the `unit` project: a *.test.ts file must be pure (no socket, no server, no
// child process, no thread), so the calls that would leave the process throw at once, naming the
// fix, instead of letting a misplaced test slow the edit-test loop down. Vitest's own worker talks
// to its parent over the IPC channel the parent opened before this module runs, so nothing here
// touches it. Integration tests (*.int.test.ts) run without this module.
import childProcess from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';
import workerThreads from 'node:worker_threads';

export const impureMessage = 'unit tests are pure: name this file *.int.test.ts';

function refuse(what: string): never {
  throw new Error(`${what}: ${impureMessage}`);
}

function block<T extends object>(target: T, names: readonly (keyof T & string)[], label: string): void {
  for (const name of names) {
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: () => refuse(`${label}.${name}`),
    });
  }
}

block(net, ['connect', 'createConnection'], 'net');
block(net.Socket.prototype, ['connect'], 'net.Socket');
block(net.Server.prototype, ['listen'], 'net.Server');
block(tls, ['connect'], 'tls');
block(http, ['request', 'get'], 'http');
block(https, ['request', 'get'], 'https');
block(childProcess, ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'], 'child_process');
Object.defineProperty(workerThreads, 'Worker', {
  configurable: true,
  writable: true,
  value: function Worker() {
    refuse('worker_threads.Worker');
  },
});
// Named imports (`import { connect } from 'node:net'`) read the ESM view of these modules.
syncBuiltinESMExports();
