// The loopback HTTP target every prober in the bench hits, in its own process, counting the
// requests it served itself: nginx when installed (a generated loopback-only config in a temporary
// folder, requests counted from its access log), else a small Node server (counted in-process).
import { existsSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ask, startChild } from './children.ts';

export interface Target {
  /** What serves, for the printout. */
  readonly description: string;
  readonly url: string;
  readonly pid: number;
  /** Requests served since the target started. */
  served(): Promise<number>;
}

export const nginxBinary = '/usr/sbin/nginx';

/** A free loopback port, for the programs that cannot take port 0 (nginx, blackbox_exporter). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export async function waitForPort(port: number, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    }).catch(() => false);
    if (open) return;
    await sleep(100);
  }
  throw new Error(`${what} did not start listening on 127.0.0.1:${port} within ${timeoutMs / 1000} s`);
}

export function startTarget(folder: string): Promise<Target> {
  return existsSync(nginxBinary) ? startNginx(folder) : startNodeTarget();
}

async function startNginx(folder: string): Promise<Target> {
  const port = await freePort();
  const accessLog = join(folder, 'access.log');
  // One worker: the target should not take both cores from the process being measured. The log
  // format is one byte plus a newline, so the request count is the file size divided by two.
  const config = `
worker_processes 1;
daemon off;
pid ${join(folder, 'nginx.pid')};
error_log ${join(folder, 'nginx-error.log')} warn;
${process.getuid?.() === 0 ? 'user root root;' : ''}
events { worker_connections 4096; }
http {
  log_format count '.';
  access_log ${accessLog} count;
  keepalive_timeout 5;
  client_body_temp_path ${join(folder, 'body')};
  server {
    listen 127.0.0.1:${port};
    location / { return 200 "ok\\n"; }
  }
}
`;
  const file = join(folder, 'nginx.conf');
  await writeFile(file, config);
  const child = startChild(nginxBinary, ['-p', folder, '-c', file, '-e', join(folder, 'nginx-error.log')]);
  await waitForPort(port, 'nginx');
  return {
    description: `nginx (${nginxBinary}, 1 worker; requests counted from its access log)`,
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid ?? 0,
    served: async () => (existsSync(accessLog) ? Math.floor((await stat(accessLog)).size / 2) : 0),
  };
}

async function startNodeTarget(): Promise<Target> {
  const script = new URL('../target-process.ts', import.meta.url).pathname;
  const child = startChild(process.execPath, [script, '0'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [ready] = (await once(child, 'message')) as [{ port: number }];
  return {
    description: 'a Node http server (bench/target-process.ts; nginx is not installed at /usr/sbin/nginx)',
    url: `http://127.0.0.1:${ready.port}/`,
    pid: child.pid ?? 0,
    served: async () => (await ask<{ served: number }>(child, 'served')).served,
  };
}
