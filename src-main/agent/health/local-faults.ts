// Runs that failed because this machine ran out of something (base/local-fault.ts): counted as
// one episode, shown in the window and published with the rest of the live state (live-state.json)
// for `status --json`, which runs in another process. The episode ends with a run that gets an answer once none has failed
// this way for a while: a machine at its limit lets a run through whenever another ends, and
// the problem must not blink on and off with each.
import type { Clock } from '../base/clock.ts';
import { describeLocalFault, type LocalFault } from '../base/local-fault.ts';
import type { Logger } from '../base/log.ts';
import type { LiveState } from '../live/state.ts';

export interface LocalFaultEpisode {
  fault: LocalFault;
  /** Wall-clock ISO time of the first failed run. */
  since: string;
  runs: number;
}

export interface LocalFaults {
  /** A run failed with a local fault. */
  failed(fault: LocalFault): void;
  /** A run got an answer: this machine can make runs again. */
  recovered(): void;
}

/** The live state is updated at most this often during a burst of failures. */
const saveEveryMs = 1_000;
/** How long runs must go without a local fault before the episode is over. */
export const localFaultQuietMs = 10_000;

export function createLocalFaults(deps: { clock: Clock; log: Logger; live: LiveState }): LocalFaults {
  let episode: LocalFaultEpisode | undefined;
  let savedAt = -Infinity;
  let lastFaultAt = -Infinity;

  function publish(): void {
    const shown = episode;
    savedAt = deps.clock.monotonic();
    deps.live.update(({ localFault: _old, ...rest }) => (shown === undefined ? rest : { ...rest, localFault: shown }));
  }

  return {
    failed(fault) {
      lastFaultAt = deps.clock.monotonic();
      const first = episode === undefined || episode.fault !== fault;
      episode =
        episode === undefined || episode.fault !== fault
          ? { fault, since: new Date(deps.clock.now()).toISOString(), runs: 1 }
          : { ...episode, runs: episode.runs + 1 };
      if (first) deps.log.warn({ fault }, describeLocalFault(fault, 1));
      if (first || deps.clock.monotonic() - savedAt >= saveEveryMs) publish();
    },
    recovered() {
      if (episode === undefined || deps.clock.monotonic() - lastFaultAt < localFaultQuietMs) return;
      deps.log.info({ fault: episode.fault, runs: episode.runs }, 'check runs can be made again');
      episode = undefined;
      publish();
    },
  };
}
