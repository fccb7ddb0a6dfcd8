// The office-network settings (issue 12 §1-3) turned into what the API client and the probes
// use. One function per side, so the desktop shell, the headless command and enroll agree.
import { readCaBundle } from './ca-bundle.ts';
import { createApiClient, failingApiClient, type ApiClient } from './api-client.ts';
import { maskProxy, parseProxyUrl, proxyFor, type ProxyChoice } from './proxy.ts';

export type EgressPolicy = 'open' | 'strict';

export interface NetworkSettings {
  /** The explicit proxy; undefined or '' = the environment's, if any. */
  proxyUrl?: string | undefined;
  checksUseProxy?: boolean | undefined;
  serverCaFile?: string | undefined;
  checksCaFile?: string | undefined;
  egressPolicy?: EgressPolicy | undefined;
  /** Why the stored settings could not all be used (they fell back, closed): a problem to show. */
  settingsProblem?: string | undefined;
}

/** What a probe needs to dial through the proxy: the URL (with credentials) and NO_PROXY. */
export interface ProbeProxy {
  url: string;
  noProxy: string;
}

export interface ProbeNetwork {
  proxy?: ProbeProxy;
  ca?: string[];
  egressPolicy: EgressPolicy;
}

export interface ServerRoute {
  proxy: ProxyChoice | undefined;
  ca: string[] | undefined;
}

export type Resolved<T> = { ok: true; value: T } | { ok: false; message: string; action: string };

const nonEmpty = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === '' ? undefined : v.trim();

/** The proxy and CAs for the agent's own traffic to serverUrl. */
export function serverRoute(
  serverUrl: string,
  settings: NetworkSettings,
  env: NodeJS.ProcessEnv,
): Resolved<ServerRoute> {
  const proxy = proxyFor(serverUrl, nonEmpty(settings.proxyUrl), env);
  if (!proxy.ok) return { ok: false, message: proxy.message, action: 'correct the proxy address in Settings' };
  const caFile = nonEmpty(settings.serverCaFile);
  if (caFile === undefined) return { ok: true, value: { proxy: proxy.proxy, ca: undefined } };
  const bundle = readCaBundle(caFile, 'server CA');
  if (!bundle.ok) return { ok: false, message: bundle.message, action: 'choose the CA file again in Settings' };
  return { ok: true, value: { proxy: proxy.proxy, ca: bundle.pems } };
}

/**
 * The API client for serverUrl under these settings. Unusable settings give a client whose every
 * call fails with the reason, so that enroll and the running agent report it like any failure
 * to reach the server (enroll exit 7, a problem in the window), and nothing is sent.
 */
export function serverClient(
  serverUrl: string,
  settings: NetworkSettings,
  env: NodeJS.ProcessEnv,
  userAgent: string,
  now?: () => number,
): ApiClient {
  const route = serverRoute(serverUrl, settings, env);
  if (!route.ok)
    return failingApiClient({ kind: 'network', cause: 'bad-setting', message: route.message, action: route.action });
  return createApiClient({
    baseUrl: serverUrl,
    userAgent,
    proxy: route.value.proxy,
    ca: route.value.ca,
    ...(now === undefined ? {} : { now }),
  });
}

/** What the checks run with; an unreadable checks CA is reported and the checks run without it. */
export function probeNetwork(
  settings: NetworkSettings,
  env: NodeJS.ProcessEnv,
): { value: ProbeNetwork; problems: string[] } {
  const problems: string[] = [];
  const value: ProbeNetwork = { egressPolicy: settings.egressPolicy ?? 'open' };
  if (settings.checksUseProxy === true) {
    const explicit = nonEmpty(settings.proxyUrl);
    const chosen =
      explicit ??
      nonEmpty(env.https_proxy) ??
      nonEmpty(env.HTTPS_PROXY) ??
      nonEmpty(env.http_proxy) ??
      nonEmpty(env.HTTP_PROXY);
    const parsed =
      chosen === undefined
        ? undefined
        : parseProxyUrl(chosen, explicit === undefined ? 'the environment' : 'the proxy setting');
    if (parsed === undefined)
      problems.push('checks are set to use the proxy, but no proxy is set; they dial their targets directly');
    else if (!parsed.ok) problems.push(parsed.message);
    else value.proxy = { url: parsed.proxy.url.href, noProxy: nonEmpty(env.no_proxy) ?? nonEmpty(env.NO_PROXY) ?? '' };
  }
  const caFile = nonEmpty(settings.checksCaFile);
  if (caFile !== undefined) {
    const bundle = readCaBundle(caFile, 'checks CA');
    if (bundle.ok) value.ca = bundle.pems;
    else problems.push(bundle.message);
  }
  return { value, problems };
}

/** How the proxy for the server is shown (credentials masked), or undefined without one. */
export const shownProxy = (route: ServerRoute): string | undefined =>
  route.proxy === undefined ? undefined : maskProxy(route.proxy.url);
