// GET /api/events: the contract's events as server-sent events, one stream per open page. The
// stream starts with the current snapshot so that a page that (re)connects is current at once;
// a comment line every few seconds keeps proxies and idle timers from closing it.
import type { ServerResponse } from 'node:http';
import type { EventName, EventPayloads } from '../../ipc/contract.ts';
import type { EventHub } from '../../ipc/events.ts';
import { commonHeaders } from './static-files.ts';

export const heartbeatMs = 15_000;

export function sseFrame(event: EventName, payload: unknown): string {
  // JSON has no raw newlines, so one data line always holds the whole payload.
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}

export function openEventStream(
  res: ServerResponse,
  hub: EventHub,
  first: EventPayloads['agent:state-changed'],
): () => void {
  res.writeHead(200, {
    ...commonHeaders,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  res.write(sseFrame('agent:state-changed', first));
  const unsubscribe = hub.subscribe((event, payload) => res.write(sseFrame(event, payload)));
  const heartbeat = setInterval(() => res.write(': still here\n\n'), heartbeatMs);
  const close = (): void => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  res.on('close', close);
  return () => {
    close();
    res.end();
  };
}
