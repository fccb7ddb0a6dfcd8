// The one way a probe opens a connection to its target: directly or through the user's proxy,
// under the egress policy, with each phase recorded in the trace. Every probe (and every
// redirect hop) dials here, so the policy and the proxy cannot be bypassed by a scheme.
import type { LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { EgressBlockedError, egressRefusal, nameRefusal, refusedKind } from './egress.ts';
import { bypassesProxy } from '../base/no-proxy.ts';
import { openTunnel, shownProxy } from './proxy-tunnel.ts';
import { waitFor } from './socket-wait.ts';
import type { ResolvedAddress, Resolver, Run } from './types.ts';
import { traceConnect, type ConnectionTrace } from './trace.ts';
const { lookup: dnsLookup } = process.getBuiltinModule('node:dns/promises');
const { connect, isIP } = process.getBuiltinModule('node:net');
const { connect: tlsConnect } = process.getBuiltinModule('node:tls');

export const systemResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, order: 'verbatim' });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * Throws EgressBlockedError unless every address may be reached under the run's policy. A
 * refusal of a name never quotes the address it resolved to: for a private-definition check
 * that address is part of the private network the definition must not reveal (issue 24 §10).
 */
function checkAddresses(run: Run, host: string, addresses: readonly string[]): void {
  if (run.egressPolicy !== 'strict') return;
  if (addresses.length === 0) throw new EgressBlockedError(`${host} has no address`);
  for (const address of addresses) {
    const kind = refusedKind(address);
    if (kind === undefined) continue;
    throw new EgressBlockedError(
      address === host
        ? (egressRefusal(address) ?? kind)
        : `${host} resolves to ${kind.replace(/^not /, 'something not ')}`,
    );
  }
}

/**
 * The addresses a connection to `host` may use, resolved once and checked: the connection is
 * pinned to them, so a name that resolves differently a moment later (DNS rebinding) cannot
 * move it. An IP literal is checked as is.
 */
async function checkedAddresses(run: Run, host: string, trace: ConnectionTrace): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  const refusedName = run.egressPolicy === 'strict' && family === 0 ? nameRefusal(host) : undefined;
  if (refusedName !== undefined) throw new EgressBlockedError(refusedName);
  if (family !== 0) {
    checkAddresses(run, host, [host]);
    return [{ address: host, family: family === 6 ? 6 : 4 }];
  }
  const found = await (run.resolver ?? systemResolver)(host);
  trace.lookupAt = run.now();
  checkAddresses(
    run,
    host,
    found.map((a) => a.address),
  );
  if (found.length === 0) throw Object.assign(new Error(`no address for ${host}`), { code: 'EAI_NODATA' });
  return found;
}

/** Whether this connection goes through the user's proxy. */
export function proxied(run: Run, host: string, port: number): boolean {
  return run.proxy !== undefined && !bypassesProxy(run.proxy.noProxy, host, port);
}

/**
 * A plain TCP connection to host:port, connected. Through the proxy when the user opted checks
 * into it (NO_PROXY honoured); then `trace.viaProxy` names the proxy (credentials masked).
 */
export async function dialTcp(run: Run, host: string, port: number, trace: ConnectionTrace): Promise<Socket> {
  if (run.proxy !== undefined && proxied(run, host, port)) {
    trace.viaProxy = shownProxy(run.proxy.url);
    // Under the strict policy the name is resolved and checked here and the proxy is asked for
    // the checked address, since the proxy's own resolution cannot be pinned.
    const target =
      run.egressPolicy === 'strict' ? ((await checkedAddresses(run, host, trace))[0]?.address ?? host) : host;
    const socket = await openTunnel(run, run.proxy.url, target, port);
    trace.connectedAt = run.now();
    return socket;
  }
  // Resolved and checked here under the strict policy or an injected resolver; otherwise Node
  // looks the name up itself, and an IP literal needs no lookup and no check at all (a pinned
  // lookup and its closures for nothing cost ~0.5 KB a run; issue 26).
  const checked = run.egressPolicy === 'strict' || run.resolver !== undefined;
  const addresses = checked ? await checkedAddresses(run, host, trace) : undefined;
  const socket =
    addresses === undefined
      ? connect({ host, port })
      : connect({ host, port, lookup: pinnedLookup(addresses), autoSelectFamily: addresses.length > 1 });
  socket.on('error', () => undefined); // reported through waitFor; later errors end reads
  traceConnect(socket, trace, run.now);
  try {
    await waitFor(socket, 'connect', run);
  } catch (err) {
    socket.destroy();
    throw err;
  }
  return socket;
}

/** A lookup for net.connect that answers with addresses already resolved and checked. */
function pinnedLookup(addresses: ResolvedAddress[]) {
  return (
    _hostname: string,
    options: { all?: boolean },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    if (options.all === true) callback(null, addresses);
    else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
  };
}

export interface TlsDialOptions {
  /** Host name for SNI and the certificate check; none for an IP literal. */
  servername: string | undefined;
  alpn?: string[];
}

/**
 * A TLS connection over `raw`, handshake done (or failed). When the handshake fails after the
 * target sent bytes (a plain HTTP or SSH port answering the ClientHello), the trace records
 * that something came back, so latency is not reported as 0.
 */
export async function upgradeTls(
  run: Run,
  raw: Socket,
  trace: ConnectionTrace,
  options: TlsDialOptions,
): Promise<TLSSocket> {
  // Through a proxy, the raw socket has already read the proxy's answer to CONNECT.
  const readBefore = raw.bytesRead;
  const socket = tlsConnect({
    socket: raw,
    ...(options.servername === undefined ? {} : { servername: options.servername }),
    // Verified by the caller from the handshake's own result, so a refused certificate can be named.
    rejectUnauthorized: false,
    ...(options.alpn === undefined ? {} : { ALPNProtocols: options.alpn }),
    secureContext: run.trust,
  });
  socket.on('error', () => undefined);
  try {
    await waitFor(socket, 'secureConnect', run);
  } catch (err) {
    if (raw.bytesRead > readBefore) trace.firstByteAt ??= run.now();
    socket.destroy();
    raw.destroy();
    throw err;
  }
  trace.secureAt = run.now();
  return socket;
}

/** The SNI name for `host`: host names only (RFC 6066), never an IP literal. */
export function serverNameOf(host: string): string | undefined {
  return isIP(host) === 0 ? host : undefined;
}
