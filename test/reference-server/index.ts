// The reference uptime server: a faithful, persistent implementation of the server side of the
// wire API (docs/architecture.md sums it up), with an admin API for what the wire leaves to the
// server's UI, request recording and fault injection for tests. See README.md beside this file.
import { createAdmin, type ReferenceAdmin } from './admin.ts';
import { createFaultControls, type FaultControls } from './fault-controls.ts';
import { createFaultRegistry } from './faults.ts';
import { dispatch } from './http/dispatch.ts';
import { createListener } from './http/listener.ts';
import { createRecorder, defaultRecorderLimits, type RecordedRequest, type RecorderLimits } from './recorder.ts';
import type { Endpoint } from './routes/table.ts';
import { openState } from './state.ts';
import type { MonitorRecord, StoredResult, StoredStatus } from './types.ts';

export type * from './types.ts';
export type { ReferenceAdmin } from './admin.ts';
export type { FaultControls } from './fault-controls.ts';
export type { FaultAction, FaultHandle, FaultOptions, FaultSpec } from './faults.ts';
export type { RecordedRequest, RecorderLimits } from './recorder.ts';
export type { Endpoint } from './routes/table.ts';

export interface ReferenceServerOptions {
  /** SQLite file, kept across restarts of the process; absent or ':memory:' = in memory. */
  dbPath?: string;
  /** Absent or 0: a free port chosen by the system (kept for restarts). */
  port?: number;
  /** Default 127.0.0.1. The server is for loopback use only. */
  host?: string;
  /** The server's clock (token expiry, stamps, fault windows); default real time. */
  now?: () => Date;
  /** Bounds of the request log; default 10,000 requests and 64 MiB of bodies. */
  recorderLimits?: Partial<RecorderLimits>;
}

export interface RequestFilter {
  endpoint?: Endpoint;
  method?: string;
  path?: string;
}

export interface ReferenceServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** Whether the listener is up (false between stop() and start()). */
  readonly running: boolean;
  readonly admin: ReferenceAdmin;
  readonly faults: FaultControls;
  /** Every request seen (bounded, oldest first), optionally filtered. */
  requests(filter?: RequestFilter): RecordedRequest[];
  clearRequests(): void;
  /** Stored results, in arrival order, of one monitor or all. */
  results(monitorId?: string): StoredResult[];
  /** Every status report, in arrival order, of one monitor or all. */
  statuses(monitorId?: string): StoredStatus[];
  /** The latest status report of a monitor. */
  latestStatus(monitorId: string): StoredStatus | undefined;
  monitor(id: string): MonitorRecord | undefined;
  /** Closes the listener and every open connection; state and faults are kept. */
  stop(): Promise<void>;
  /** Listens again on the same port after stop(); no-op when running. */
  start(): Promise<void>;
  /** stop() then start(): an outage of about zero length. */
  restart(): Promise<void>;
  /** Stops and closes the database. The server cannot be started again. */
  close(): Promise<void>;
}

/** Starts a reference server; resolves once it accepts connections. */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? (() => new Date());
  const state = openState(options.dbPath, now);
  const registry = createFaultRegistry(now);
  const recorder = createRecorder({ ...defaultRecorderLimits, ...options.recorderLimits });
  const listener = createListener(host, options.port ?? 0, (req, res, stopping) =>
    dispatch(req, res, { state, faults: registry, recorder, stopping }),
  );
  try {
    await listener.start();
  } catch (error) {
    state.db.close();
    throw error;
  }
  let closed = false;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  const server: ReferenceServer = {
    get url() {
      return `http://${urlHost}:${listener.port}`;
    },
    get port() {
      return listener.port;
    },
    get running() {
      return listener.running;
    },
    admin: createAdmin(state),
    faults: createFaultControls(registry),
    requests: (filter = {}) =>
      recorder
        .list()
        .filter(
          (r) =>
            (filter.endpoint === undefined || r.endpoint === filter.endpoint) &&
            (filter.method === undefined || r.method === filter.method.toUpperCase()) &&
            (filter.path === undefined || r.path === filter.path),
        ),
    clearRequests: () => recorder.clear(),
    results: (monitorId) => state.results.list(monitorId),
    statuses: (monitorId) => state.statuses.list(monitorId),
    latestStatus: (monitorId) => state.statuses.latest(monitorId),
    monitor: (id) => state.monitors.get(id),
    stop: () => listener.stop(),
    async start() {
      if (closed) throw new Error('reference server is closed: start a new one');
      await listener.start();
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    async close() {
      if (closed) return;
      closed = true;
      await listener.stop();
      state.db.close();
    },
  };
  return server;
}
