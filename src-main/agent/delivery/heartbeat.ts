// The heartbeat: MonitorStatus (version, uptime, unsent results, the last outage) and ping, the
// two calls that tell the server this monitor is alive.
import type { Clock } from '../base/clock.ts';
import type { CompletedOutage } from '../health/outages.ts';
import { statusBody } from '../health/status-body.ts';
import type { ServiceCalls } from './service-calls.ts';
import { agentVersion } from '../base/version.ts';
import type { ApiOutcome } from '../wire/api-error.ts';
import type { OkResponse } from '../wire/schemas.ts';

export interface HeartbeatDeps {
  calls: ServiceCalls;
  clock: Clock;
  unsent: () => number;
  lastOutage: () => CompletedOutage | undefined;
}

export interface Heartbeat {
  readonly status: (signal: AbortSignal) => Promise<ApiOutcome<OkResponse>>;
  readonly ping: (signal: AbortSignal) => Promise<ApiOutcome<OkResponse>>;
}

export function createHeartbeat(deps: HeartbeatDeps): Heartbeat {
  // uptime_sec counts the time the agent ran: monotonic, so neither a sleep nor a clock step adds to it.
  const startedAt = deps.clock.monotonic();
  return {
    status: (signal) =>
      deps.calls.call('status', signal, (client, apiKey, s) =>
        client.status(
          apiKey,
          statusBody({
            version: agentVersion,
            ranForMs: deps.clock.monotonic() - startedAt,
            unsent: deps.unsent(),
            lastOutage: deps.lastOutage(),
          }),
          s,
        ),
      ),
    ping: (signal) => deps.calls.call('ping', signal, (client, apiKey, s) => client.ping(apiKey, s)),
  };
}
