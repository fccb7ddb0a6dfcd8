// The agent's background loops: sync, upload, status and ping, each paced by the service-call
// policy (backoff, jitter, the 401/403 rules of service-calls.ts), and the connectivity watch.
import type { Clock } from '../base/clock.ts';
import type { Logger } from '../base/log.ts';
import { startLoop, type Loop } from '../base/loop.ts';
import type { AgentTunables } from '../defaults.ts';
import type { ServiceCalls } from './service-calls.ts';

type Body = Parameters<ServiceCalls['paced']>[2];

export interface ServiceLoopsDeps {
  clock: Clock;
  log: Logger;
  calls: ServiceCalls;
  tunables: Pick<AgentTunables, 'syncIntervalMs' | 'uploadIntervalMs' | 'statusIntervalMs' | 'pingIntervalMs'>;
  sync: Body;
  upload: Body;
  status: Body;
  ping: Body;
  /** One look at connectivity; resolves with the delay before the next. */
  watchConnectivity: () => Promise<number>;
}

export type ServiceLoops = Record<'sync' | 'upload' | 'status' | 'ping' | 'connectivity', Loop>;

/** A loop body that throws is a bug: logged, and the loop tries again after this long. */
const afterBugMs = 60_000;

export function startServiceLoops(deps: ServiceLoopsDeps): ServiceLoops {
  const { clock, log, calls, tunables } = deps;
  const loop = (name: string, run: (signal: AbortSignal) => Promise<number>, initialDelayMs = 0): Loop =>
    startLoop({
      clock,
      initialDelayMs,
      run,
      onError: (error) => log.error({ err: error }, `${name} loop failed unexpectedly`),
      fallbackDelayMs: afterBugMs,
    });
  return {
    sync: loop('sync', calls.paced('sync', tunables.syncIntervalMs, deps.sync)),
    // The first upload waits one interval: results of the first runs go in one batch.
    upload: loop('upload', calls.paced('upload', tunables.uploadIntervalMs, deps.upload), tunables.uploadIntervalMs),
    status: loop('status', calls.paced('status', tunables.statusIntervalMs, deps.status)),
    ping: loop('ping', calls.paced('ping', tunables.pingIntervalMs, deps.ping)),
    connectivity: loop('connectivity', deps.watchConnectivity),
  };
}
