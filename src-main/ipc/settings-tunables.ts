// Settings (the desktop store or the headless settings.json) as agent tunables: one mapping for
// both hosts. Absent values keep the agent's defaults.
import type { AgentTunables } from '../agent/defaults.ts';
import type { NetworkSettings } from '../agent/wire/network.ts';
import type { Settings } from './contract.ts';

export function tunablesFrom(settings: Settings): Partial<AgentTunables> {
  const ms = (seconds: number | undefined): number | undefined =>
    seconds === undefined ? undefined : Math.round(seconds * 1000);
  const tunables: Partial<AgentTunables> = {};
  const { syncSec, uploadSec, statusSec, pingSec } = settings.intervals;
  const sync = ms(syncSec);
  const upload = ms(uploadSec);
  const status = ms(statusSec);
  const ping = ms(pingSec);
  if (sync !== undefined) tunables.syncIntervalMs = sync;
  if (upload !== undefined) tunables.uploadIntervalMs = upload;
  if (status !== undefined) tunables.statusIntervalMs = status;
  if (ping !== undefined) tunables.pingIntervalMs = ping;
  if (settings.connectivityTargets.length > 0) tunables.connectivityTargets = settings.connectivityTargets;
  const { maxResults, maxMegabytes } = settings.outboxLimits;
  if (maxResults !== undefined) tunables.outboxMaxCount = maxResults;
  if (maxMegabytes !== undefined) tunables.outboxMaxBytes = maxMegabytes * 1024 * 1024;
  return tunables;
}

/**
 * The office-network settings (proxy, CA files, egress policy) as the agent takes them, with the
 * reason some came from fallbacks (a damaged settings file), which the window lists as a problem.
 */
export function networkFrom(settings: Settings, settingsProblem?: string): NetworkSettings {
  return {
    ...(settingsProblem === undefined ? {} : { settingsProblem }),
    proxyUrl: settings.proxyUrl,
    checksUseProxy: settings.checksUseProxy,
    serverCaFile: settings.serverCaFile,
    checksCaFile: settings.checksCaFile,
    egressPolicy: settings.egressPolicy,
  };
}
