// Sleep and wake as the OS reports them (powerMonitor): on resume the agent continues every
// check on its grid from now, invents no missed runs, and gives the network a short grace period.
// Headless, the agent sees the same from its clocks; this only tells it sooner.
import type { Logger } from '../agent/base/log.ts';

/** The part of Electron's powerMonitor used here. */
export interface PowerMonitorLike {
  on(event: 'suspend' | 'resume', listener: () => void): unknown;
}

export function setupPowerEvents(deps: { powerMonitor: PowerMonitorLike; onResume: () => void; log: Logger }): void {
  deps.powerMonitor.on('suspend', () => deps.log.info('the machine is going to sleep; checks pause until it wakes'));
  deps.powerMonitor.on('resume', () => {
    deps.log.info('the machine woke up; checks continue on their schedule from now');
    deps.onResume();
  });
}
