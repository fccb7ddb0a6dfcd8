// The offline policy: whether this machine is online, the outages it lived through, and what a
// failed check run becomes while it is offline. design.md "Connectivity (revised)":
// - a run in which the target answered anything is a real result, always uploaded;
// - only a run that failed before any answer may be kept locally as "skipped (offline)", and
//   only when a connectivity probe taken after that failure finds no target answering;
// - a refusal is an answer: a server refusing connections is "server unavailable" (results
//   buffer, failures stay failures), never an outage;
// - an answer any of the agent's own checks got is an answer too: while other targets answer,
//   a run with no answer is a real failure of its target, and an open outage is over;
// - a run that started while an outage was open is judged by it (skipped), even when the
//   network is back by the time it fails; a connectivity verdict of "offline" counts only when
//   nothing answered since it was asked, so a probe straddling the recovery opens no outage;
// - the verdict is taken on the raw facts, before invert_result, as the server's own agent does;
// - a run this machine could not make (out of descriptors, memory) is a local problem: neither
//   an answer nor "no answer", never an outage (design.md "Fail closed").
import type { Clock } from '../base/clock.ts';
import type { Logger } from '../base/log.ts';
import type { ProbeOutcome } from '../probes/types.ts';
import type { LiveState } from '../live/state.ts';
import type { Database } from '../store/database.ts';
import { createConnectivity, type Connectivity, type Endpoint, type Reachability } from './connectivity.ts';
import { createLocalFaults } from './local-faults.ts';
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
  /** The connectivity probe; absent = TCP connects to `targets` (a seam for fake-clock tests). */
  connectivity?: Connectivity;
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
  const monotonic = (): number => deps.clock.monotonic();
  const outages = createOutageTracker(deps.db, now());
  const localFaults = createLocalFaults(deps);
  const connectivity =
    deps.connectivity ?? createConnectivity({ targets: deps.targets, timeoutMs: deps.timeoutMs, monotonic });
  /** Monotonic ms of the latest answer from anyone: a check's target, the server, a connectivity target. */
  let answeredAt = -Infinity;
  /** The open or last outage on the monotonic clock: runs that started inside it are judged by it. */
  let outageSpan: { from: number; to?: number } | undefined;

  function wentOffline(): void {
    const at = now();
    if (!outages.wentOffline(at)) return;
    outageSpan = { from: monotonic() };
    deps.log.warn(
      'no connectivity target answers: offline; check runs that get no answer are kept as skipped until connectivity returns',
    );
    deps.live.update((s) => ({ ...s, online: false, offlineSince: at.toISOString() }));
    deps.onOffline();
  }

  function cameOnline(): void {
    const outage = outages.cameOnline(now());
    if (outage === undefined) return;
    if (outageSpan !== undefined) outageSpan.to = monotonic();
    deps.log.info({ durationSec: outage.durationSec }, 'connectivity is back; the outage is over');
    deps.live.update(({ offlineSince: _gone, ...rest }) => ({ ...rest, online: true }));
    deps.onOnline();
  }

  /** Something answered: the network works now. */
  function answered(): void {
    answeredAt = monotonic();
    cameOnline();
  }

  /**
   * A verdict taken now, i.e. after whatever just failed; moves the outage state with it. An
   * "offline" from targets that did not answer yields to any answer that came in meanwhile.
   */
  async function reachability(): Promise<Reachability> {
    const askedAt = monotonic();
    const verdict = await connectivity.probe(askedAt);
    if (verdict === 'online' || answeredAt >= askedAt) {
      answered();
      return 'online';
    }
    if (verdict === 'offline') wentOffline();
    return verdict;
  }

  const startedInOutage = (startedAt: number): boolean =>
    outageSpan !== undefined &&
    startedAt >= outageSpan.from &&
    (outageSpan.to === undefined || startedAt < outageSpan.to);

  function skip(): true {
    deps.live.update((s) => ({ ...s, skippedOffline: s.skippedOffline + 1 }));
    return true;
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
      if (outcome.answered) {
        localFaults.recovered();
        answered();
        return false;
      }
      if (outcome.invalidDefinition === true || outcome.cancelled === true) return false;
      // A pass needs an answer; rawSuccess is the verdict before invert_result flipped it.
      if (outcome.rawSuccess ?? outcome.success) return false;
      if (outcome.localFault !== undefined) {
        localFaults.failed(outcome.localFault);
        return false;
      }
      const startedAt = monotonic() - (outcome.timings?.totalMs ?? 0);
      if (startedInOutage(startedAt) || deps.inWakeGrace?.() === true) return skip();
      // Other targets answered while this one stayed silent: the network worked.
      if (answeredAt >= startedAt) return false;
      return (await reachability()) === 'offline' ? skip() : false;
    },
    serverAnswered: answered,
    async serverUnreachable() {
      await reachability();
    },
    async watch() {
      if (!outages.offline) return idleMs;
      await reachability();
      return deps.offlineProbeMs;
    },
  };
}
