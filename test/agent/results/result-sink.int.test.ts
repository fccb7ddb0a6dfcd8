// The result sink on a disk that really fills up (a small tmpfs): the real error, bounded memory,
// small retry batches, recovery by itself once space is free, and nothing committed lost.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  createResultSink,
  describeStoreProblem,
  sinkDefaults,
  type ResultSink,
  type StoreProblem,
} from '../../../src-main/agent/results/result-sink.ts';
import { openDatabase, type Database } from '../../../src-main/agent/store/database.ts';
import { createHistory } from '../../../src-main/agent/store/history.ts';
import { createOutbox, type Outbox } from '../../../src-main/agent/store/outbox.ts';
import type { WireResult } from '../../../src-main/agent/wire/schemas.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';
import { tempDataDir } from '../../support/temp-dir.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason, type SmallDisk } from '../../support/tmpfs.ts';

const record = (i: number, size = 100) => {
  const result: WireResult = {
    check_guid: `g${i % 5}`,
    monitor_id: 'abcdefghjkmn',
    ran_at: new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + i * 1000).toISOString(),
    success: false,
    http_status: 0,
    latency_ms: 0,
    error: 'x'.repeat(size),
  };
  return {
    result,
    history: {
      check_guid: result.check_guid,
      ran_at: result.ran_at,
      success: false,
      skipped: false,
      http_status: 0,
      latency_ms: 0,
      error: 'e',
    },
  };
};

/** A sink on a fresh store and a fake clock; `commits` holds each commit's result count. */
async function openSink(
  callbacks: Partial<
    Pick<Parameters<typeof createResultSink>[0], 'onCommitted' | 'onCallbackError' | 'keepsHistoryOf'>
  > = {},
) {
  const db = openDatabase(join(await tempDataDir(), 'agent.db'));
  const outbox = createOutbox(db, { maxCount: 1_000_000, maxBytes: 1 << 30 });
  const clock = createFakeClock();
  const commits: number[] = [];
  const history = createHistory(db, 300);
  const sink = createResultSink({
    db,
    outbox,
    history,
    clock,
    maxBatch: 500,
    onCommitted: ({ results }) => commits.push(results),
    ...callbacks,
  });
  const close = (): void => {
    sink.close();
    db.close();
  };
  return { outbox, history, clock, commits, sink, close };
}

describe('result sink commit window', () => {
  it('commits the results that finish within one window together, and a lone result once its window ends', async () => {
    const { outbox, clock, commits, sink, close } = await openSink();
    const window = sinkDefaults.commitWindowMs;
    // Three runs finishing at different moments of one window share a commit.
    sink.add(record(0));
    await clock.advance(window / 2);
    sink.add(record(1));
    sink.add(record(2));
    expect(outbox.count()).toBe(0);
    await clock.advance(window / 2);
    expect(commits).toEqual([3]);
    expect(outbox.count()).toBe(3);
    // A lone run is not held longer than one window.
    sink.add(record(3));
    await clock.advance(window - 1);
    expect(commits).toEqual([3]);
    await clock.advance(1);
    expect(commits).toEqual([3, 1]);
    // A full wire batch does not wait for the window.
    for (let i = 4; i < 504; i++) sink.add(record(i));
    expect(commits).toEqual([3, 1, 500]);
    close();
  });

  it('commits a run that ends after a quiet window at once: an agent at rest sets no timer for it', async () => {
    const { clock, commits, sink, close } = await openSink();
    const window = sinkDefaults.commitWindowMs;
    await clock.advance(60_000);
    const timersBefore = clock.pending();
    sink.add(record(0));
    expect(commits).toEqual([1]);
    expect(clock.pending()).toBe(timersBefore);
    // The next run within the window waits for it, sharing a commit with whatever follows.
    await clock.advance(window / 2);
    sink.add(record(1));
    sink.add(record(2));
    expect(commits).toEqual([1]);
    await clock.advance(window);
    expect(commits).toEqual([1, 2]);
    close();
  });

  it("tells a run's observers only once it is stored, and a failing observer neither loses nor repeats a commit", async () => {
    const errors: unknown[] = [];
    let commits = 0;
    const { outbox, clock, sink, close } = await openSink({
      onCommitted: () => {
        commits++;
        throw new Error('observer broke');
      },
      onCallbackError: (error) => errors.push(error),
    });
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) sink.add({ ...record(i), committed: () => seen.push(outbox.count()) });
    expect(seen).toEqual([]);
    await clock.advance(sinkDefaults.commitWindowMs);
    // Each observer ran after all three were in the outbox.
    expect(seen).toEqual([3, 3, 3]);
    expect(errors.map(String)).toEqual(['Error: observer broke']);
    // Not retried: once in the outbox, once committed.
    await clock.advance(5 * sinkDefaults.commitWindowMs);
    expect(commits).toBe(1);
    expect(outbox.count()).toBe(3);
    close();
  });

  it('keeps no history of a run whose check left while it waited for its commit, and still stores its result', async () => {
    const gone = new Set<string>();
    const kept: string[] = [];
    const { outbox, history, clock, sink, close } = await openSink({
      keepsHistoryOf: (guid) => !gone.has(guid),
      onCommitted: ({ history: entries }) => kept.push(...entries.map((e) => e.check_guid)),
    });
    const told: string[] = [];
    for (const i of [0, 1]) sink.add({ ...record(i), committed: () => told.push(`g${i}`) });
    // g1 leaves the check set (its history forgotten) while its run waits for the window.
    gone.add('g1');
    await clock.advance(sinkDefaults.commitWindowMs);
    expect(outbox.count()).toBe(2);
    expect(kept).toEqual(['g0']);
    expect(history.recent('g0', 10)).toHaveLength(1);
    expect(history.recent('g1', 10)).toEqual([]);
    // Each run's own observer still runs: the check runner decides whether its check is told.
    expect(told).toEqual(['g0', 'g1']);
    close();
  });
});

describe.skipIf(!canMountTmpfs)(`result sink on a full disk (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`, () => {
  let disk: SmallDisk;
  let db: Database;
  let outbox: Outbox;
  let clock: FakeClock;
  let sink: ResultSink;
  let problems: { problem: StoreProblem; error: unknown }[];
  let recovered: StoreProblem[];
  let committed: number;

  beforeAll(() => (disk = mountSmallDisk(1024)));
  afterAll(() => disk.unmount());
  afterEach(() => {
    sink.close();
    db.close();
    disk.free();
  });

  function open(maxPending: number): void {
    db = openDatabase(join(disk.dir, `agent-${Date.now()}.db`));
    outbox = createOutbox(db, { maxCount: 1_000_000, maxBytes: 1 << 30 });
    clock = createFakeClock();
    problems = [];
    recovered = [];
    committed = 0;
    sink = createResultSink({
      db,
      outbox,
      history: createHistory(db, 300),
      clock,
      maxBatch: 500,
      maxPending,
      retryBatch: 20,
      retryMs: 1000,
      // Each result is tried at once here: what matters is what a full disk does to it.
      commitWindowMs: 0,
      onCommitted: ({ results }) => (committed += results),
      onProblem: (problem, error) => problems.push({ problem, error }),
      onRecovered: (problem) => recovered.push(problem),
    });
    // What is committed before the disk fills must survive it.
    for (let i = 0; i < 11; i++) sink.add(record(i));
    sink.flush();
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    disk.fill();
  }

  it('names the real error (not a failed ROLLBACK), keeps results in memory, and recovers within a second of space being freed', async () => {
    open(1000);
    for (let i = 11; i < 41; i++) sink.add(record(i));
    await clock.advance(0);
    const last = problems.at(-1);
    expect(last?.problem).toMatchObject({ kind: 'disk-full', waiting: 30, dropped: 0 });
    expect(String(last?.error)).toContain('database or disk is full');
    expect(problems.map((p) => String(p.error)).join()).not.toContain('cannot rollback');
    expect(describeStoreProblem(sink.problem() as StoreProblem, disk.dir)).toBe(
      `the disk holding ${disk.dir} is full: 30 results are waiting in memory; free space`,
    );
    // Still full: retries keep failing, nothing lost, nothing committed twice.
    await clock.advance(3000);
    expect(sink.pending()).toBe(30);
    disk.free();
    await clock.advance(1000);
    expect(sink.problem()).toBeUndefined();
    expect(recovered).toHaveLength(1);
    expect(outbox.count()).toBe(41);
    expect(committed).toBe(41);
  });

  it('bounds what waits in memory: the oldest go first and are counted as dropped once the store takes writes again', async () => {
    open(25);
    for (let i = 11; i < 51; i++) sink.add(record(i));
    await clock.advance(0);
    expect(sink.pending()).toBe(25);
    expect(sink.problem()).toMatchObject({ waiting: 25, dropped: 15 });
    expect(describeStoreProblem(sink.problem() as StoreProblem, disk.dir)).toContain('(15 older ones dropped)');
    disk.free();
    await clock.advance(1000);
    expect(outbox.count()).toBe(11 + 25);
    expect(outbox.dropped()).toBe(15);
    // The newest survived, the oldest went.
    const ranAts = outbox.peek(100, 1 << 20).map((r) => r.ran_at);
    expect(ranAts).toContain(record(50).result.ran_at);
    expect(ranAts).not.toContain(record(11).result.ran_at);
  });

  it('retries in small batches, so a little freed space is used at once instead of swallowed by one big batch', async () => {
    open(5000);
    for (let i = 11; i < 1011; i++) sink.add(record(i, 1000));
    await clock.advance(0);
    expect(sink.problem()?.waiting).toBe(1000);
    // ~1 MiB is waiting; 128 KiB freed takes some of it now (one big batch would take none).
    disk.free(128 * 1024);
    await clock.advance(1000);
    const waiting = sink.pending();
    expect(waiting).toBeLessThan(1000);
    expect(waiting).toBeGreaterThan(0);
    expect(outbox.count()).toBe(11 + 1000 - waiting);
    expect(sink.problem()?.waiting).toBe(waiting);
    // On stop, what could not be saved is counted for the log.
    expect(sink.close()).toEqual({ unsaved: waiting, dropped: 0 });
  });
});
