// The normal answer to a routed request, in the one order every endpoint shares: credential
// (401, then 403), body size, then the handler. Runs synchronously, so each operation is atomic
// with respect to every other request and to the admin API.
import type { Route } from '../routes/table.ts';
import type { ServerState } from '../state.ts';
import type { ReadBody } from './body.ts';
import { fail, HttpError, type Reply } from './reply.ts';

// RFC 6750 section 2.1: "Bearer" (any case), one or more spaces, a b64token.
const bearerPattern = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export function bearerCredential(header: string | undefined): string | undefined {
  return header === undefined ? undefined : bearerPattern.exec(header)?.[1];
}

export interface RoutedRequest {
  route: Route;
  query: URLSearchParams;
  authorization: string | undefined;
  body: ReadBody;
}

export function answer(state: ServerState, { route, query, authorization, body }: RoutedRequest): Reply {
  const credential = bearerCredential(authorization);
  if (credential === undefined) {
    return fail(401, 'missing or malformed Authorization header: expected "Bearer <credential>"');
  }
  const overflow = () =>
    fail(route.overflowStatus, `request body too large: at most ${route.bodyCap} bytes on ${route.path}`);
  try {
    if (route.auth === 'api-key') {
      const monitor = state.monitors.findByKey(credential);
      if (!monitor) return fail(401, 'unknown API key');
      // last_seen_at is the authentication step's doing, even for a disabled monitor: it was seen.
      state.monitors.touch(monitor.id);
      if (monitor.disabled) return fail(403, 'monitor is disabled');
      if (body.overflow) return overflow();
      return route.handle({ state, query, body, monitor });
    }
    const token = state.tokens.findUsable(credential);
    if (!token) return fail(401, 'unknown, revoked or expired enrollment token');
    if (body.overflow) return overflow();
    return route.handle({ state, query, body, token });
  } catch (error) {
    if (error instanceof HttpError) return fail(error.status, error.message);
    throw error;
  }
}
