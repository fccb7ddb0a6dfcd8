// What a TLS connection of the agent trusts, for the probes and the API client alike: what Node
// trusts by default, plus the user's extra certificate authorities when there are some.
import type { SecureContext } from 'node:tls';

const { createSecureContext, getCACertificates } = process.getBuiltinModule('node:tls');

/**
 * The trust list for extra CAs: Node's default (its roots, the system's when enabled,
 * NODE_EXTRA_CA_CERTS) plus the extra ones. Giving `ca` replaces the default, hence both.
 */
export const trustWith = (pems: readonly string[]): string[] => [...getCACertificates('default'), ...pems];

let plain: SecureContext | undefined;
const withExtras = new WeakMap<readonly string[], SecureContext>();

/**
 * The TLS context for connections that trust `extra` besides Node's default (none: the default
 * alone), made once per list and shared by every connection with it. Without one, each
 * connection builds its own from the options, and with extra CAs that means parsing every root
 * Node trusts: several times the CPU of the whole probe (issue 26, docs/performance.md "TLS
 * contexts"). A shared context resumes no session: Node keeps no client sessions in it, so every
 * run still makes a full handshake.
 */
export function trustContext(extra: readonly string[] | undefined): SecureContext {
  if (extra === undefined || extra.length === 0) return (plain ??= createSecureContext());
  let context = withExtras.get(extra);
  if (context === undefined) {
    context = createSecureContext({ ca: trustWith(extra) });
    withExtras.set(extra, context);
  }
  return context;
}
