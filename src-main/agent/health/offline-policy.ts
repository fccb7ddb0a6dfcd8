// The offline policy: whether this machine is online, the outages it lived through, and what a
// failed check run becomes while it is offline. design.md "Connectivity (revised)":
// - a run in which the target answered anything is a real result, always uploaded;
// - only a run that failed before any answer may be kept locally as "skipped (offline)", and
//   only when a connectivity probe taken after that failure finds no target answering;
// - a refusal is an answer: a server refusing connections is "server unavailable" (results
//   buffer, failures stay failures), never an outage.
import type { Clock } from '../base/clock.ts';
import type { Logger } from '../base/log.ts';
import type { ProbeOutcome } from '../probes/types.ts';
import type { LiveState } from '../live/state.ts';
import type { Database } from '../store/database.ts';
import { createConnectivity, type Endpoint } from './connectivity.ts';
import { createOutageTracker, type CompletedOutage } from './outages.ts';

export interface OfflinePolicyDeps {
  db: Database;
  clock: Clock;
  log: Logger;
  live: LiveState;
  /** The connectivity targets: the server (when enrolled) and the user's extra ones. */
  targets: () => readonly Endpoint[];
  timeoutMs: number;
  /** How often connectivity is probed while offline. */
  offlineProbeMs: number;
  /**
   * True in the grace period after a wake-up (schedule/wake.ts): the network takes seconds to
   * come back, so a run with no answer then is treated like one while offline.
   */
  inWakeGrace?: () => boolean;
  /** An outage started: the connectivity watch should start probing. */
  onOffline: () => void;
  /** An outage ended: what waited for the network may go now. */
  onOnline: () => void;
}

export interface OfflinePolicy {
  readonly offline: boolean;
  /** The last outage completed since the agent started (MonitorStatus last_outage_*). */
  readonly lastOutage: CompletedOutage | undefined;
  /** Whether a finished run is kept locally as skipped (true) or is a real result to upload. */
  skipsRun(outcome: ProbeOutcome): Promise<boolean>;
  /** The server answered a call (whatever it said): the network works. */
  serverAnswered(): void;
  /** A call got no answer from the server: find out whether this machine is offline. */
  serverUnreachable(): Promise<void>;
  /** One round of the connectivity watch; returns the delay before the next. */
  watch(): Promise<number>;
}

/** Idle wait of the connectivity watch while online: wentOffline() wakes it. */
const idleMs = 3_600_000;

export function createOfflinePolicy(deps: OfflinePolicyDeps): OfflinePolicy {
  const now = (): Date => new Date(deps.clock.now());
  const outages = createOutageTracker(deps.db, now());
  const connectivity = createConnectivity({
    targets: deps.targets,
    timeoutMs: deps.timeoutMs,
    monotonic: () => deps.clock.monotonic(),
  });

  function wentOffline(): void {
    const at = now();
    if (!outages.wentOffline(at)) return;
    deps.log.warn(
      'no connectivity target answers: offline; check runs that get no answer are kept as skipped until connectivity returns',
    );
    deps.live.update((s) => ({ ...s, online: false, offlineSince: at.toISOString() }));
    deps.onOffline();
  }

  function cameOnline(): void {
    const outage = outages.cameOnline(now());
    if (outage === undefined) return;
    deps.log.info({ durationSec: outage.durationSec }, 'connectivity is back; the outage is over');
    deps.live.update(({ offlineSince: _gone, ...rest }) => ({ ...rest, online: true }));
    deps.onOnline();
  }

  /** A verdict taken now, i.e. after whatever just failed; moves the outage state with it. */
  async function onlineNow(): Promise<boolean> {
    const online = await connectivity.probe(deps.clock.monotonic());
    if (online) cameOnline();
    else wentOffline();
    return online;
  }

  return {
    get offline() {
      return outages.offline;
    },
    get lastOutage() {
      return outages.lastCompleted;
    },
    async skipsRun(outcome) {
      // outcome.answered: the probe saw the target (or its name server) send anything back.
      if (outcome.success || outcome.invalidDefinition === true || outcome.answered) return false;
      if (deps.inWakeGrace?.() !== true && (await onlineNow())) return false;
      deps.live.update((s) => ({ ...s, skippedOffline: s.skippedOffline + 1 }));
      return true;
    },
    serverAnswered: cameOnline,
    async serverUnreachable() {
      await onlineNow();
    },
    async watch() {
      if (!outages.offline) return idleMs;
      await onlineNow();
      return deps.offlineProbeMs;
    },
  };
}
