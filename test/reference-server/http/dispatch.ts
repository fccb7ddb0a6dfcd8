// One HTTP exchange: route, read the body (bounded), apply a fault if one matches, answer, and
// record the whole exchange.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { faultReply, type ActiveFault, type FaultRegistry } from '../faults.ts';
import type { Recorder } from '../recorder.ts';
import { routes, smallBodyCap, type Route } from '../routes/table.ts';
import type { ServerState } from '../state.ts';
import { answer } from './answer.ts';
import { readBody, type ReadBody } from './body.ts';
import { fail, type Reply } from './reply.ts';

export interface DispatchDeps {
  state: ServerState;
  faults: FaultRegistry;
  recorder: Recorder;
  /** Aborted when the listener stops, to end delayed and hanging answers. */
  stopping: AbortSignal;
}

/** No answer at all: the connection was reset or left hanging. */
const noAnswer = Symbol('no answer');

type Located = { route: Route; reply?: undefined } | { route?: undefined; reply: Reply };

function locate(method: string, path: string): Located {
  const onPath = routes.filter((r) => r.path === path);
  if (onPath.length === 0) return { reply: fail(404, `not found: ${path}`) };
  const route = onPath.find((r) => r.method === method);
  if (route) return { route };
  const allow = onPath.map((r) => r.method).join(', ');
  const reply = fail(405, `method ${method} not allowed on ${path}: use ${allow}`);
  return { reply: { ...reply, headers: { ...reply.headers, allow } } };
}

async function disrupt(
  fault: ActiveFault,
  produce: () => Reply,
  req: IncomingMessage,
  res: ServerResponse,
  stopping: AbortSignal,
): Promise<Reply | typeof noAnswer> {
  const { action } = fault.spec;
  if (action.kind === 'reset') {
    req.socket.destroy();
    return noAnswer;
  }
  if (action.kind === 'hang') {
    if (req.socket.destroyed) return noAnswer; // the client is already gone
    await new Promise<void>((resolve) => {
      res.once('close', resolve);
      stopping.addEventListener('abort', () => resolve(), { once: true });
    });
    req.socket.destroy();
    return noAnswer;
  }
  if (action.kind === 'delay') {
    try {
      await sleep(action.ms, undefined, { signal: stopping });
    } catch {
      return noAnswer; // the server stopped meanwhile; its sockets are gone
    }
    return produce();
  }
  return faultReply(action) ?? produce();
}

function send(res: ServerResponse, reply: Reply, body: ReadBody): void {
  const headers: Record<string, string> = { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) };
  // An unread remainder stays on the wire: close rather than parse it as the next request.
  if (body.overflow) headers.connection = 'close';
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}

export async function dispatch(req: IncomingMessage, res: ServerResponse, deps: DispatchDeps): Promise<void> {
  const { state, faults, recorder, stopping } = deps;
  const at = state.now().toISOString();
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://reference.invalid');
  const located = locate(method, url.pathname);
  const { route } = located;
  const body = await readBody(req, route?.bodyCap ?? smallBodyCap);

  // A listener stopped while the body was arriving: its sockets are gone (and after close()
  // so is the database), so the request ends here like one cut off by a crash.
  const fault = route && !stopping.aborted ? faults.take(route.endpoint) : undefined;
  const normal = (): Reply =>
    located.route
      ? answer(state, { route: located.route, query: url.searchParams, authorization: req.headers.authorization, body })
      : located.reply;
  let reply: Reply | typeof noAnswer;
  if (stopping.aborted) reply = noAnswer;
  else if (!fault) reply = normal();
  else if (fault.spec.afterHandling === true) {
    const handled = normal();
    reply = await disrupt(fault, () => handled, req, res, stopping);
  } else reply = await disrupt(fault, normal, req, res, stopping);

  if (reply !== noAnswer && !res.destroyed) send(res, reply, body);
  recorder.add({
    at,
    method,
    path: url.pathname,
    query: url.search.slice(1),
    headers: req.headers,
    body: body.bytes.toString('utf8'),
    bodyComplete: body.complete,
    endpoint: route?.endpoint ?? null,
    status: reply === noAnswer || res.destroyed ? null : reply.status,
    fault: fault?.label ?? null,
  });
}
