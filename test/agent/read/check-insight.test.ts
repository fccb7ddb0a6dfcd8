// The rollups behind the window: recorded in memory from each result commit once it succeeded,
// written on the housekeeping grid, before reads and at stop, on a real store file, with the clock
// driven by hand.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentDefaults } from '../../../src-main/agent/defaults.ts';
import { createCheckInsight, insightDefaults, type CheckInsight } from '../../../src-main/agent/read/check-insight.ts';
import { createLiveState, initialState, type LiveState } from '../../../src-main/agent/live/state.ts';
import { createResultSink, sinkDefaults } from '../../../src-main/agent/results/result-sink.ts';
import { openDatabase, type Database } from '../../../src-main/agent/store/database.ts';
import { createHistory, type HistoryEntry } from '../../../src-main/agent/store/history.ts';
import { createOutbox } from '../../../src-main/agent/store/outbox.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';
import { tempDir, type TempDir } from '../../support/temp-dir.ts';

describe('check insight: when the rollups reach the store', () => {
  let dir: TempDir;
  let dbs: Database[];
  let clock: FakeClock;
  let live: LiveState;
  const noChecks = {
    runnable: () => ({ runnable: new Map(), missingPrivate: [], unknownPrivate: [], unschedulable: [] }),
  };

  afterEach(async () => {
    for (const db of dbs) db.close();
    await dir.remove();
  });

  async function setUp(
    tunables: Partial<typeof insightDefaults> = {},
  ): Promise<{ db: Database; insight: CheckInsight; rows: () => number }> {
    dir = await tempDir('insight-test-');
    const db = openDatabase(join(dir.path, 'agent.db'));
    // Another connection, as another process (or the next start after a crash) reads the file.
    const reader = openDatabase(join(dir.path, 'agent.db'));
    dbs = [db, reader];
    clock = createFakeClock();
    live = createLiveState(initialState(new Date(clock.now()), 0));
    const insight = createCheckInsight(
      { db, history: createHistory(db, 60), clock, live, checkSet: noChecks },
      tunables,
    );
    const rows = (): number =>
      (reader.prepare('SELECT COALESCE(SUM(runs), 0) AS n FROM rollups_minute').get() as { n: number }).n;
    return { db, insight, rows };
  }
  const entry = (guid: string, secondsIn: number, success = true): HistoryEntry => ({
    check_guid: guid,
    ran_at: new Date(clock.now() - 30_000 + secondsIn * 1000).toISOString(),
    success,
    skipped: false,
    http_status: success ? 200 : 503,
    latency_ms: 12,
    error: success ? '' : 'status 503',
  });

  it('writes on the housekeeping grid and at stop, never in the result commit; a read sees every run at once', async () => {
    // At the next tick of the grid the load sample, the clock watch and the key file's poll share
    // (clock.ts untilNextTick), not a period after the first run: one wake-up of an agent at rest
    // for all of them (issue 26).
    const grid = agentDefaults.loadSampleMs;
    expect(insightDefaults.rollupFlushMs).toBe(grid);
    const { insight, rows } = await setUp();
    await clock.advance(4_000);
    insight.committed([entry('a', 0), entry('b', 0)]);
    insight.committed([entry('a', 1, false)]);
    expect(rows()).toBe(0);
    await clock.advance(grid - 4_000 - 1);
    expect(rows()).toBe(0);
    await clock.advance(1);
    expect(rows()).toBe(3);

    insight.committed([entry('a', 2), entry('b', 2)]);
    // The window reads exact figures without waiting for the timer.
    expect(insight.window('a', '1h').uptime['1h']).toEqual({ runs: 3, failures: 1, skipped: 0 });
    expect(rows()).toBe(4);
    // Stopping writes the rest (b's last run) and leaves no timer behind.
    insight.close();
    expect(rows()).toBe(5);
    expect(clock.pending()).toBe(0);
  });

  it('a timed flush writes in slices, one after the other, until nothing is left', async () => {
    const { insight, rows } = await setUp({ rollupFlushSlice: 2 });
    insight.committed(['a', 'b', 'c', 'd', 'e'].map((guid) => entry(guid, 0)));
    await clock.advance(insightDefaults.rollupFlushMs);
    expect(rows()).toBe(5);
    expect(clock.pending()).toBe(0);
  });

  it('runs reach the figures from a result commit that succeeded, once: not while it is refused, once when retried', async () => {
    const { db, insight } = await setUp();
    const history = createHistory(db, 60);
    let refuse = true;
    const sink = createResultSink({
      db,
      outbox: createOutbox(db, { maxCount: 1_000, maxBytes: 1 << 20 }),
      // The history insert goes through and the commit is then refused (as at a full disk's COMMIT):
      // the transaction is rolled back with the runs already offered to the store.
      history: {
        ...history,
        insert: (entries) => {
          history.insert(entries);
          if (refuse) throw new Error('database or disk is full');
        },
      },
      clock,
      maxBatch: 500,
      onCommitted: ({ history: entries }) => insight.committed(entries),
    });
    sink.add({ history: entry('a', 0) });
    sink.add({ history: entry('a', 1, false) });
    sink.flush();
    expect(sink.problem()).toBeDefined();
    expect(insight.window('a', '1h').uptime['1h']).toEqual({ runs: 0, failures: 0, skipped: 0 });
    // The sink retries the same runs every second; the next commit succeeds.
    await clock.advance(sinkDefaults.retryMs);
    expect(sink.problem()).toBeDefined();
    refuse = false;
    await clock.advance(sinkDefaults.retryMs);
    expect(sink.problem()).toBeUndefined();
    expect(insight.window('a', '1h').uptime['1h']).toEqual({ runs: 2, failures: 1, skipped: 0 });
    sink.close();
  });

  it('while results cannot be saved the rollups wait in memory, and are written once results are', async () => {
    const { insight, rows } = await setUp();
    insight.committed([entry('a', 0)]);
    live.update((s) => ({ ...s, storeProblem: 'the disk is full' }));
    await clock.advance(30_000);
    expect(rows()).toBe(0);
    live.update(({ storeProblem: _gone, ...rest }) => rest);
    await clock.advance(insightDefaults.rollupFlushMs);
    expect(rows()).toBe(1);
  });
});
