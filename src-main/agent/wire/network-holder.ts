// The network settings in force (explicit ones, else the environment) and what follows from them:
// the API client for the server, the checks' side (egress, proxy, CAs) and what "the server is
// reachable" is measured against. Replaced as a whole when the user saves new settings.
import type { Logger } from '../base/log.ts';
import type { Endpoint } from './endpoint.ts';
import type { ApiClient } from './api-client.ts';
import { probeNetwork, serverClient, serverRoute, type NetworkSettings, type ProbeNetwork } from './network.ts';
import { serverReachTarget } from './proxy.ts';

export interface NetworkHolder {
  /** The checks' side of the settings. */
  probe(): ProbeNetwork;
  client(server: string, userAgent: string, now: () => number): ApiClient;
  /** With a proxy for the server, "online" means the proxy answers: the traffic only goes there. */
  serverTarget(server: string): Endpoint;
  set(settings: NetworkSettings): void;
  /** Why the stored settings could not all be used, if they could not. */
  settingsProblem(): string | undefined;
}

export function createNetworkHolder(initial: NetworkSettings, env: NodeJS.ProcessEnv, log: Logger): NetworkHolder {
  let settings = initial;
  let probe = resolveProbe();

  /** Problems of the checks' side (an unreadable CA file) are logged, never fatal. */
  function resolveProbe(): ProbeNetwork {
    const resolved = probeNetwork(settings, env);
    for (const problem of resolved.problems) log.warn(problem);
    return resolved.value;
  }

  return {
    probe: () => probe,
    client: (server, userAgent, now) => serverClient(server, settings, env, userAgent, now),
    serverTarget(server) {
      const route = serverRoute(server, settings, env);
      return serverReachTarget(server, route.ok ? route.value.proxy?.url : undefined);
    },
    settingsProblem: () => settings.settingsProblem,
    set(next) {
      settings = next;
      probe = resolveProbe();
    },
  };
}
