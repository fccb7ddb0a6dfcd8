// The running agent's load (schedule/load.ts) in its live state, where the window reads it and
// live-state.json (live/publisher.ts) carries it to `status --json`. Every sample is kept (its
// totals move); overload is logged once when it starts. Cleared when probing stops.
import type { Clock } from '../base/clock.ts';
import type { Logger } from '../base/log.ts';
import { describeOverload, type LoadReport } from '../schedule/load.ts';
import type { LiveState } from './state.ts';

export interface LoadReporterDeps {
  clock: Clock;
  log: Logger;
  live: LiveState;
}

/** Keeps the scheduler's load samples where the window and `status --json` read them. */
export function createLoadReporter(deps: LoadReporterDeps): { report(report: LoadReport): void; clear(): void } {
  return {
    report(report) {
      const before = deps.live.get().load;
      if (report.overloaded && before?.overloaded !== true)
        deps.log.warn({ skipped: report.recentBacklog }, describeOverload(report));
      const sampledAt = new Date(deps.clock.now()).toISOString();
      deps.live.update((s) => ({ ...s, load: report, loadSampledAt: sampledAt }));
    },
    clear() {
      if (deps.live.get().load !== undefined) deps.live.update(({ load: _gone, loadSampledAt: _at, ...rest }) => rest);
    },
  };
}
