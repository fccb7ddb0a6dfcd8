// Loopback probe targets for tests, the demo and benches: everything binds 127.0.0.1 on a
// random port and returns a close() that also ends open connections.
export { daysFromNow, makeCa, makeLeaf, type KeyPair, type LeafOptions, type NameAttribute } from './certs.ts';
export {
  startHttpTarget,
  type HttpTarget,
  type HttpTargetOptions,
  type RecordedRequest,
  type Route,
  type RouteHandler,
  type RouteSpec,
} from './http-target.ts';
export { closedPort, listen, loopback } from './ports.ts';
export { startSilentPort, type SilentPort } from './silent-port.ts';
export { startTcpTarget, startTlsTarget, type SocketTarget, type TcpTargetOptions } from './socket-targets.ts';
export { startForwardProxy, type ForwardProxy, type ForwardProxyOptions } from './forward-proxy.ts';
export { startRawHttpTarget, type RawHttpTarget } from './raw-http-target.ts';
