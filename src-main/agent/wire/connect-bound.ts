// The API client's bound on a connect: a plain timer cleared at the connect. undici's own is a
// timer of its own kind that keeps ticking every half second until the tick after the connect,
// a wake-up after every call of an agent at rest (issue 26), so undici's is turned off wherever
// the client connects (tls-trust.ts directly, api-client.ts to a proxy) and this one bounds it.
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { errors } from './undici-parts.ts';

/** undici's connector returns the socket it opens (core/connect.js), though its type says void. */
export type OpeningConnector = (
  options: buildConnector.Options,
  callback: buildConnector.Callback,
) => Socket | undefined;

/**
 * open, given up after ms: the opening socket is destroyed with undici's own connect timeout
 * error, worded as undici words it, so that the failure's cause still reads "connection timed
 * out". Without the socket (another undici) the call's own deadline bounds the connect.
 */
export function boundedConnector(open: OpeningConnector, ms: number): buildConnector.connector {
  return (opts, callback) => {
    const bound = setTimeout(
      () => opening?.destroy(new errors.ConnectTimeoutError(`connect timed out after ${ms} ms`)),
      ms,
    );
    const opening = open(opts, (...args) => {
      clearTimeout(bound);
      callback(...args);
    });
  };
}
