// The MonitorStatus body (wire-api.md): built from what the agent knows, never negative.
import type { MonitorStatus } from '../wire/schemas.ts';
import type { CompletedOutage } from './outages.ts';

export function statusBody(input: {
  version: string;
  /** How long the agent has run, on the monotonic clock: a sleep or a clock step does not count. */
  ranForMs: number;
  unsent: number;
  lastOutage: CompletedOutage | undefined;
}): MonitorStatus {
  return {
    version: input.version,
    uptime_sec: Math.max(0, Math.floor(input.ranForMs / 1000)),
    unsent_results: Math.max(0, input.unsent),
    ...(input.lastOutage === undefined
      ? {}
      : { last_outage_sec: Math.max(0, input.lastOutage.durationSec), last_outage_ended_at: input.lastOutage.endedAt }),
  };
}
