// A local flood of idle sockets cannot take the process's file descriptors (issue 27 point 5):
// the dashboard caps its connections and closes idle ones, and answers again once they are gone.
// The server runs in this process, so its sockets are counted in /proc/self/fd: the ones whose
// local port is the dashboard's (the listener and every accepted connection).
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type Agent } from '../../../src-main/agent/agent.ts';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { fileSettingsStore } from '../../../src-main/cli/dashboard/settings-file.ts';
import { startDashboard, type Dashboard } from '../../../src-main/cli/dashboard/server.ts';
import { webHostActions } from '../../../src-main/cli/dashboard/web-host.ts';
import { eventually } from '../../support/agent-harness.ts';
import { tempDataDir } from '../../support/cli.ts';

/** Open descriptors of this process that are TCP sockets bound to `port` on this side. */
function serverSideSockets(port: number): number {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(hex) === true && fields[9] !== undefined) inodes.add(fields[9]);
    }
  }
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode)) count++;
    } catch {
      // Closed while listed.
    }
  }
  return count;
}

const get = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });

describe.skipIf(process.platform !== 'linux')('dashboard connection limits', () => {
  const maxConnections = 8;
  let agent: Agent;
  let dashboard: Dashboard;

  beforeAll(async () => {
    const dataDir = await tempDataDir();
    agent = createAgent({ dataDir, vault: fileKeyVault(dataDir) });
    dashboard = await startDashboard({
      agent,
      settings: fileSettingsStore(dataDir),
      host: webHostActions(dataDir, silentLogger),
      log: silentLogger,
      port: 0,
      rendererRoot: undefined,
      limits: { maxConnections, idleTimeoutMs: 400, headersTimeoutMs: 400, requestTimeoutMs: 400 },
    });
  });
  afterAll(async () => {
    await dashboard.close();
    await agent.stop();
  });

  it('holds at most maxConnections idle sockets, closes idle ones, and answers once they are gone', async () => {
    const flood = maxConnections + 50;
    let closed = 0;
    const allClosed = Promise.withResolvers<undefined>();
    const sockets: Socket[] = [];
    await Promise.all(
      Array.from(
        { length: flood },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect(dashboard.port, '127.0.0.1', () => resolve());
            socket.on('error', () => undefined);
            socket.on('close', () => {
              closed++;
              if (closed === flood) allClosed.resolve(undefined);
              resolve();
            });
            sockets.push(socket);
          }),
      ),
    );
    // The excess is closed by the server at once: wait for those closes, then count.
    await eventually(() => closed >= flood - maxConnections, 15_000, 'the excess connections closed by the server');
    expect(serverSideSockets(dashboard.port)).toBeLessThanOrEqual(maxConnections + 1);
    // The idle ones are closed by the server (the test never closes them itself).
    await eventually(() => closed === flood, 15_000, 'every idle connection closed by the server');
    await allClosed.promise;
    expect(serverSideSockets(dashboard.port)).toBe(1);
    expect(await get(dashboard.port)).toBe(503);
  });
});
