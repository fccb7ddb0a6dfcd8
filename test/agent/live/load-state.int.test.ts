// The load reporter keeps the scheduler's load samples in the store for `status --json`. It runs
// on a timer of its own, so a store that cannot take the write (a full disk) must not throw out
// of it: an exception there ended the whole `run` process with exit 1 (full-disk.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { openAgentStore, type AgentStore } from '../../../src-main/agent/store/agent-store.ts';
import { systemClock } from '../../../src-main/agent/base/clock.ts';
import { agentDefaults } from '../../../src-main/agent/defaults.ts';
import { createLoadReporter, readLoad } from '../../../src-main/agent/live/load-state.ts';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import type { LoadReport } from '../../../src-main/agent/schedule/load.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason, type SmallDisk } from '../../support/tmpfs.ts';

const keepingUp: LoadReport = {
  overloaded: false,
  executed: 10,
  skippedOverlap: 0,
  skippedBacklog: 0,
  recentDue: 10,
  recentSkipped: 0,
  recentBacklog: 0,
  recentOverlap: 0,
  lagP99Ms: 2,
};
const overloaded: LoadReport = {
  overloaded: true,
  executed: 6,
  skippedOverlap: 3,
  skippedBacklog: 1,
  recentDue: 10,
  recentSkipped: 4,
  recentBacklog: 1,
  recentOverlap: 3,
  lagP99Ms: 40,
};

describe.skipIf(!canMountTmpfs)(
  `the load reporter on a full disk (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`,
  () => {
    let disk: SmallDisk | undefined;
    let store: AgentStore | undefined;
    afterEach(() => {
      store?.close();
      disk?.unmount();
      store = undefined;
      disk = undefined;
    });

    it('keeps reporting to the window while the store cannot take the sample, and stores it again once space is free', () => {
      disk = mountSmallDisk(1024);
      store = openAgentStore(disk.dir, agentDefaults);
      const live = createLiveState(initialState(new Date(), 0));
      const reporter = createLoadReporter({ db: store.db, clock: systemClock, log: silentLogger, live });
      reporter.report(keepingUp);
      // An empty write-ahead log: the next write needs new space on the disk.
      store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      disk.fill();

      expect(() => reporter.report(overloaded)).not.toThrow();
      expect(live.get().load).toEqual(overloaded);
      // The stop clears the stored figure: a throw there skipped the rest of the stop.
      expect(() => reporter.clear()).not.toThrow();
      expect(live.get().load).toBeUndefined();

      disk.free();
      reporter.report(overloaded);
      expect(readLoad(store.db, systemClock.now(), agentDefaults.loadSampleMs)).toMatchObject(overloaded);
    });
  },
);
