// GET /api/checks?since=: the caller's delta and the watermark for its next call.
import { fail, json, type Reply } from '../http/reply.ts';
import { formatMicros, parseRfc3339 } from '../timestamps.ts';
import type { MonitorContext } from './table.ts';

export function handleChecks({ state, query, monitor }: MonitorContext): Reply {
  const given = query.getAll('since');
  if (given.length > 1) return fail(400, 'invalid since: given more than once');
  let sinceUs = 0; // absent = the Unix epoch, i.e. everything
  if (given[0] !== undefined) {
    const parsed = parseRfc3339(given[0]);
    if (parsed === undefined) return fail(400, 'invalid since: not an RFC 3339 date-time');
    sinceUs = parsed;
  }
  // Delta and watermark are taken in one synchronous step: nothing can change in between, and
  // the stamper guarantees every later change is stamped after the watermark.
  const checks = state.assignments.delta(monitor.id, sinceUs);
  return json({ checks, server_time: formatMicros(state.stamper.watermark()) });
}
