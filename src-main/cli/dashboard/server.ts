// The loopback web dashboard: the built renderer plus the IPC contract over HTTP. Every request
// passes the access rules in access.ts; the API answers exactly what the Electron IPC answers,
// because both run the same handlers (src-main/ipc/handlers.ts) and event hub.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent } from '../../agent/agent.ts';
import type { Logger } from '../../agent/base/log.ts';
import { isInvokeChannel } from '../../ipc/contract.ts';
import { createEventHub } from '../../ipc/events.ts';
import { createHandlers, type HostActions, type SettingsStore } from '../../ipc/handlers.ts';
import { hostAllowed, newAccessToken, originAllowed, tokenHeader, tokenMatches } from './access.ts';
import { eventsPath, ipcPath, tokenQueryParam } from '../../ipc/web-protocol.ts';
import { openEventStream } from './event-stream.ts';
import { commonHeaders, serveStatic } from './static-files.ts';
const { createServer } = process.getBuiltinModule('node:http');

export interface DashboardOptions {
  agent: Agent;
  settings: SettingsStore;
  host: HostActions;
  log: Logger;
  /** 0 = a free port chosen by the system. */
  port: number;
  /** The token of a previous run to keep (the open tab keeps working); else a new one. */
  token?: string;
  /** The built renderer; undefined serves a page that says how to build it. */
  rendererRoot: string | undefined;
  /** Connection limits; tests shorten them. */
  limits?: Partial<DashboardLimits>;
}

/**
 * A local flood of idle or slow connections must not take the process's file descriptors,
 * which the checks share: connections are capped, and idle or slow ones are closed.
 */
export interface DashboardLimits {
  /** Open connections at most; more are closed at once (a window and a few tabs need a handful). */
  maxConnections: number;
  /** A connection that sends nothing for this long is closed (event streams excepted). */
  idleTimeoutMs: number;
  /** The request's headers must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request must arrive within this. */
  requestTimeoutMs: number;
  /** A kept-alive connection waits this long for its next request. */
  keepAliveTimeoutMs: number;
}

export const dashboardLimits: DashboardLimits = {
  maxConnections: 64,
  idleTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

export interface Dashboard {
  /** What the user opens: http://127.0.0.1:PORT/?token=... */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** IPC arguments are small; anything bigger is a mistake or an attack. */
const maxBodyBytes = 256 * 1024;

function sendText(res: ServerResponse, status: number, text: string): void {
  res
    .writeHead(status, { ...commonHeaders, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    .end(`${text}\n`);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res
    .writeHead(status, {
      ...commonHeaders,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    })
    .end(JSON.stringify(value));
}

async function readJson(
  req: IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) return { ok: false, status: 413, message: `request body over ${maxBodyBytes} bytes` };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'request body is not valid JSON' };
  }
}

export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const { agent, log } = options;
  const token = options.token ?? newAccessToken();
  const invoke = createHandlers({ agent, settings: options.settings, host: options.host, log });
  const hub = createEventHub(agent);
  const streams = new Set<() => void>();
  let port = options.port;

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const given = req.headers[tokenHeader];
    if (!tokenMatches(typeof given === 'string' ? given : undefined, token)) {
      sendText(
        res,
        401,
        'missing or wrong dashboard token: open the URL that uptime-agent printed (it ends in ?token=...)',
      );
      return;
    }
    if (path === eventsPath && req.method === 'GET') {
      // An event stream is quiet between events by design: it is not an idle connection.
      req.socket.setTimeout(0);
      const close = openEventStream(res, hub, agent.snapshot());
      streams.add(close);
      res.on('close', () => streams.delete(close));
      return;
    }
    const channel = path.startsWith(ipcPath) ? path.slice(ipcPath.length) : undefined;
    if (channel === undefined || !isInvokeChannel(channel)) {
      sendText(res, 404, `no such API path ${path}`);
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      sendText(res, 405, 'IPC calls are POST requests');
      return;
    }
    // A JSON content type cannot be sent by a plain HTML form, which closes one more door.
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      sendText(res, 415, 'IPC calls need content-type application/json');
      return;
    }
    const body = await readJson(req);
    if (!body.ok) {
      sendText(res, body.status, body.message);
      return;
    }
    const result = await invoke(channel, body.value);
    sendJson(res, 200, result);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, port)) {
      sendText(res, 403, 'wrong Host: open the dashboard at the 127.0.0.1 address uptime-agent printed');
      return;
    }
    const origin = req.headers.origin;
    if (!originAllowed(origin, port)) {
      sendText(res, 403, 'requests from other sites are refused');
      return;
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path.startsWith('/api/')) {
      await api(req, res, path);
      return;
    }
    if (options.rendererRoot === undefined) {
      sendText(
        res,
        503,
        'the dashboard page is not built: run "npm run build:renderer" in the uptime-agent folder, then reload',
      );
      return;
    }
    await serveStatic(req, res, options.rendererRoot, path);
  }

  const limits = { ...dashboardLimits, ...options.limits };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often the two timeouts above are checked: often enough to hold them.
      connectionsCheckingInterval: Math.max(10, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        log.error({ err: error, path: req.url?.split('?')[0] }, 'dashboard request failed');
        if (!res.headersSent) sendText(res, 500, 'the dashboard failed to answer; see the agent log');
        else res.destroy();
      });
    },
  );
  server.maxConnections = limits.maxConnections;
  // An idle socket (one that never sends a request, too) is destroyed after this.
  server.setTimeout(limits.idleTimeoutMs);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // The port is taken: nothing of this attempt may stay subscribed to the agent.
    hub.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/?${tokenQueryParam}=${token}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      // Idempotent: the run command closes it on stop and again in its cleanup.
      closing ??= new Promise<void>((resolve) => {
        for (const close of streams) close();
        hub.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
