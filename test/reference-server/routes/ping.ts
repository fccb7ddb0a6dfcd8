// GET /api/ping: the authentication step already updated last_seen_at; nothing else to do.
import { json, type Reply } from '../http/reply.ts';
import type { MonitorContext } from './table.ts';

export function handlePing(_ctx: MonitorContext): Reply {
  return json({ status: 'ok' });
}
