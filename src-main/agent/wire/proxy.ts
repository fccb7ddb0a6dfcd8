// Which proxy the agent's own traffic to the server goes through (issue 12 §1): the explicit
// setting (--proxy, Settings) wins over HTTPS_PROXY / HTTP_PROXY, and NO_PROXY applies to both.
// Lowercase variables win over uppercase ones, and an https server falls back to HTTP_PROXY,
// as curl and undici do. Credentials in a proxy URL are never shown: maskProxy() everywhere.
import { bypassesProxy } from '../base/no-proxy.ts';
import { bareHost, portOf } from '../base/url-parts.ts';
import type { Endpoint } from './endpoint.ts';

export interface ProxyChoice {
  url: URL;
  /** Where it came from, for messages: "the proxy setting" or the variable's name. */
  source: string;
}

export type ProxyOutcome = { ok: true; proxy: ProxyChoice | undefined } | { ok: false; message: string };

/** The proxy URL with its password (and a user name alone) replaced by "***". */
export function maskProxy(url: URL): string {
  const user = url.username === '' ? '' : url.password === '' ? '***@' : `${decodeURIComponent(url.username)}:***@`;
  return `${url.protocol}//${user}${url.host}`;
}

/** A proxy address as a user or a variable gives it; "host:port" alone means http://. */
export function parseProxyUrl(
  text: string,
  source: string,
): { ok: true; proxy: ProxyChoice } | { ok: false; message: string } {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // The text may hold a password: say which setting is wrong, not what it holds.
    return {
      ok: false,
      message: `the proxy address in ${source} is not a valid URL; give one like http://proxy.example:3128`,
    };
  }
  const shown = maskProxy(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      message: `the proxy ${shown} (${source}) uses ${url.protocol.slice(0, -1)}, which is not supported; use an http:// or https:// proxy`,
    };
  }
  if (url.hostname === '')
    return {
      ok: false,
      message: `the proxy address in ${source} has no host name; give one like http://proxy.example:3128`,
    };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    return {
      ok: false,
      message: `the proxy ${shown} (${source}) must be only scheme, host and port, without a path or query`,
    };
  }
  return { ok: true, proxy: { url, source } };
}

/** The first set variable of the names given (an empty value counts as unset). */
function fromEnv(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return { name, value };
  }
  return undefined;
}

/**
 * The proxy for requests to targetUrl, or none. explicit is the proxy setting ('' or undefined =
 * none set); NO_PROXY (no_proxy first) exempts a target whichever proxy was chosen.
 */
export function proxyFor(targetUrl: string, explicit: string | undefined, env: NodeJS.ProcessEnv): ProxyOutcome {
  const target = new URL(targetUrl);
  const names =
    target.protocol === 'https:'
      ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY']
      : ['http_proxy', 'HTTP_PROXY'];
  const chosen =
    explicit !== undefined && explicit.trim() !== ''
      ? { name: 'the proxy setting', value: explicit }
      : fromEnv(env, names);
  if (chosen === undefined) return { ok: true, proxy: undefined };
  const parsed = parseProxyUrl(chosen.value, chosen.name);
  if (!parsed.ok) return parsed;
  const noProxy = fromEnv(env, ['no_proxy', 'NO_PROXY'])?.value ?? '';
  if (bypassesProxy(noProxy, target.hostname, portOf(target))) return { ok: true, proxy: undefined };
  return parsed;
}

/**
 * Where "can the server be reached" must be asked: with a proxy, the agent's traffic only ever
 * reaches the proxy, so the proxy answering is what "online" means (issue 12 §1).
 */
export function serverReachTarget(serverUrl: string, proxy: URL | undefined): Endpoint {
  const url = proxy ?? new URL(serverUrl);
  return { host: bareHost(url.hostname), port: portOf(url) };
}
