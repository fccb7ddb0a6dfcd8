// POST /api/status: the caller's self-health; the monitor is always the caller, never the body.
import { json, type Reply } from '../http/reply.ts';
import { statusSchema } from '../validate.ts';
import { jsonBody } from './json-body.ts';
import type { MonitorContext } from './table.ts';

export function handleStatus({ state, body, monitor }: MonitorContext): Reply {
  const status = jsonBody(body, statusSchema);
  // Keep only what was sent: an absent optional field stays absent in the stored history.
  const stored = Object.fromEntries(Object.entries(status).filter(([, v]) => v !== undefined));
  state.statuses.record(monitor.id, stored as typeof status);
  return json({ status: 'ok' });
}
