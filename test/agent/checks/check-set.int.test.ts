// The check set feeds the scheduler what it runs. A check shared by several monitors must reach
// the scheduler with its share (monitor_count, monitor_rank), or this monitor would run it at
// every interval instead of taking its turn on the fleet's slot. The store is a real SQLite file.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { createCheckSet, type CheckSet } from '../../../src-main/agent/checks/check-set.ts';
import type { ServiceCalls } from '../../../src-main/agent/delivery/service-calls.ts';
import { gridSlot } from '../../../src-main/agent/schedule/grid.ts';
import type { Job } from '../../../src-main/agent/schedule/scheduler-api.ts';
import { applyDelta } from '../../../src-main/agent/store/checks.ts';
import { openDatabase, type Database } from '../../../src-main/agent/store/database.ts';
import { tempDataDir } from '../../support/cli.ts';
import { wireCheck } from '../../support/wire-fixtures.ts';

// This test never syncs: a call would be a defect of the test.
const noCalls: ServiceCalls = new Proxy({} as ServiceCalls, {
  get: () => () => {
    throw new Error('the check set called the server in a test that never syncs');
  },
});

describe('the check set feeding the scheduler', () => {
  let db: Database;
  let checkSet: CheckSet;
  beforeEach(async () => {
    db = openDatabase(join(await tempDataDir(), 'agent.db'));
    checkSet = createCheckSet({ db, log: silentLogger, calls: noCalls, onChanged: () => {}, onGone: () => {} });
  });
  afterEach(() => {
    checkSet.close();
    db.close();
  });

  it("hands each check to the scheduler with its share, so a shared check takes this monitor's turn", () => {
    applyDelta(
      db,
      [
        wireCheck({ guid: 'shared', interval_sec: 60, monitor_count: 3, monitor_rank: 2 }),
        wireCheck({ guid: 'alone', interval_sec: 60 }),
      ],
      '2026-11-29T10:00:00Z',
    );
    const jobs = new Map<string, Job>();
    checkSet.feed({ upsert: (job) => jobs.set(job.guid, { ...job }), remove: (guid) => jobs.delete(guid) });

    expect(jobs.get('shared')).toMatchObject({ guid: 'shared', intervalMs: 60_000, monitorCount: 3, monitorRank: 2 });
    const shared = jobs.get('shared');
    const alone = jobs.get('alone');
    if (shared === undefined || alone === undefined) throw new Error('a check was not fed');
    // Three monitors take turns: each runs the check once every three intervals.
    expect(gridSlot(shared.guid, shared.intervalMs, shared).periodMs).toBe(180_000);
    expect(gridSlot(alone.guid, alone.intervalMs, alone).periodMs).toBe(60_000);
  });
});
