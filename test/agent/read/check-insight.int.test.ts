// The agent's record of its checks, end to end against the reference server and a real target:
// a check going down then up is one episode in the event log (announced once each way), the
// rollups carry its runs for the windows, and a "Run now" test run is explained, logged as such
// and never uploaded.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCheckInsight } from '../../../src-main/agent/read/check-insight.ts';
import { storeFile } from '../../../src-main/agent/base/data-dir.ts';
import { createResultSink, sinkDefaults } from '../../../src-main/agent/results/result-sink.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createHistory } from '../../../src-main/agent/store/history.ts';
import { createOutbox } from '../../../src-main/agent/store/outbox.ts';
import type { CheckTransition } from '../../../src-main/agent/runs/transitions.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { createFakeClock } from '../../support/fake-clock.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason, type SmallDisk } from '../../support/tmpfs.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

describe('check insight: events, rollups and test runs', () => {
  let h: Harness;
  let target: HttpTarget;
  afterEach(async () => {
    await h.close();
    await target.close();
  });

  it('records a down episode with its reason and end, feeds the windows, and test-runs without uploading', async () => {
    let status = 200;
    target = await startHttpTarget({
      '/shop': (_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('shop'),
    });
    h = await enrolledAgent();
    const told: CheckTransition[] = [];
    h.agent.onTransition((t) => told.push(t));
    const check = h.assignCheck({
      name: 'Shop',
      url: `${target.url}/shop`,
      interval_sec: 1,
    });
    await h.agent.syncNow();
    await eventually(
      () => h.agent.snapshot().checks.find((c) => c.guid === check.guid)?.health === 'up',
      10_000,
      'the check up',
    );

    status = 503;
    await eventually(
      () => h.agent.snapshot().checks.find((c) => c.guid === check.guid)?.health === 'down',
      10_000,
      'the check down',
    );
    const down = h.agent.snapshot().checks.find((c) => c.guid === check.guid);
    expect(down?.downSince).toBeDefined();
    expect(down?.beats).toMatch(/^u+d+$/);
    // More failed runs do not announce it again.
    await eventually(
      () => (h.agent.snapshot().checks.find((c) => c.guid === check.guid)?.beats ?? '').endsWith('dd'),
      10_000,
      'a second failed run',
    );

    status = 200;
    await eventually(() => told.some((t) => t.kind === 'recovered'), 10_000, 'the recovery');
    expect(told.map((t) => t.kind)).toEqual(['down', 'recovered']);
    expect(told[1]?.downSince).toBe(down?.downSince);

    const [episode] = h.agent.insight.events({ guid: check.guid, limit: 10 });
    expect(episode).toMatchObject({
      kind: 'down',
      checkName: 'Shop',
      startedAt: down?.downSince,
      endReason: 'status 200',
    });
    expect(episode?.reason).toContain('503');
    expect(episode?.endedAt).toBeDefined();

    // The recovery is announced as the run ends; the window counts it once it is committed.
    await eventually(
      () => (h.agent.snapshot().checks.find((c) => c.guid === check.guid)?.beats ?? '').endsWith('u'),
      10_000,
      'the recovery committed',
    );
    const window = h.agent.insight.window(check.guid, '1h');
    const runs = window.buckets.reduce((n, b) => n + b.runs, 0);
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(window.uptime['1h'].runs).toBe(runs);
    expect(window.uptime['1h'].failures).toBeGreaterThanOrEqual(2);
    expect(window.uptime['24h']).toEqual(window.uptime['1h']);
    expect(window.lastRun).toMatchObject({ success: true, httpStatus: 200, test: false });
    expect(window.lastRun?.timings?.totalMs).toBeGreaterThan(0);

    const uploaded = (): number => h.server.results(h.monitorId).length;
    await h.agent.uploadNow();
    const before = uploaded();
    const test = await h.agent.insight.testRun(check.guid);
    expect(test).toMatchObject({ ok: true, run: { success: true, httpStatus: 200, test: true } });
    const [logged] = h.agent.insight.events({ guid: check.guid, limit: 1 });
    expect(logged?.kind).toBe('test-run');
    expect(logged?.reason).toContain('not uploaded');
    const outcome = await h.agent.uploadNow();
    expect(outcome.ok).toBe(true);
    // Only scheduled runs reached the server: none of them is the test run's time.
    const sent = h.server.results(h.monitorId).slice(before);
    expect(sent.every((r) => r.ranAt !== (test.ok ? test.run.ranAt : ''))).toBe(true);

    const refused = await h.agent.insight.testRun('no-such-guid');
    expect(refused).toEqual({ ok: false, refused: 'not-runnable' });
  });
});

describe('check insight: the agent stopping', () => {
  let h: Harness;
  let target: HttpTarget;
  afterEach(async () => {
    await h.close();
    await target.close();
  });

  it('writes the rollups of every committed run before the store closes', async () => {
    target = await startHttpTarget({ '/': (_req, res) => res.end('ok') });
    h = await enrolledAgent();
    const check = h.assignCheck({ name: 'Home', url: `${target.url}/`, interval_sec: 1 });
    await h.agent.syncNow();
    await eventually(
      () => (h.agent.snapshot().checks.find((c) => c.guid === check.guid)?.beats ?? '').length >= 2,
      10_000,
      'two runs committed',
    );
    // Well before the first timed flush (10 s): only the stop can have written them.
    await h.agent.stop();
    const db = openDatabase(storeFile(h.dataDir));
    try {
      const { runs } = db
        .prepare(
          'SELECT COALESCE(SUM(r.runs), 0) AS runs FROM rollups_minute r JOIN check_keys k ON k.id = r.check_id WHERE k.guid = ?',
        )
        .get(check.guid) as { runs: number };
      const { n } = db
        .prepare('SELECT COUNT(*) AS n FROM history JOIN check_keys k ON k.id = check_id WHERE k.guid = ?')
        .get(check.guid) as {
        n: number;
      };
      expect(n).toBeGreaterThanOrEqual(2);
      expect(runs).toBe(n);
    } finally {
      db.close();
    }
  });
});

describe.skipIf(!canMountTmpfs)(`check insight on a full disk (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`, () => {
  let disk: SmallDisk;
  beforeAll(() => (disk = mountSmallDisk(1024)));
  afterAll(() => disk.unmount());

  it('results that wait through a full disk are counted once each in the rollups, and nothing is lost', async () => {
    const db = openDatabase(join(disk.dir, 'agent.db'));
    const clock = createFakeClock();
    const live = createLiveState(initialState(new Date(clock.now()), 0));
    const history = createHistory(db, 300);
    let offered = 0;
    const insight = createCheckInsight({
      db,
      history,
      clock,
      live,
      checkSet: {
        runnable: () => ({ runnable: new Map(), missingPrivate: [], unknownPrivate: [], unschedulable: [] }),
      },
    });
    const outbox = createOutbox(db, { maxCount: 1_000_000, maxBytes: 1 << 30 });
    const sink = createResultSink({
      db,
      outbox,
      clock,
      history: { ...history, insert: (entries) => ((offered += entries.length), history.insert(entries)) },
      maxBatch: 500,
      retryBatch: 20,
      retryMs: 1000,
      onCommitted: ({ history: entries }) => insight.committed(entries),
      onProblem: () => live.update((s) => ({ ...s, storeProblem: 'the disk is full' })),
      onRecovered: () => live.update(({ storeProblem: _gone, ...rest }) => rest),
    });
    const add = (i: number): void => {
      const ranAt = new Date(clock.now() - 60_000 + i * 100).toISOString();
      const failed = i % 4 === 0;
      sink.add({
        result: {
          check_guid: 'a',
          monitor_id: 'abcdefghjkmn',
          ran_at: ranAt,
          success: !failed,
          http_status: failed ? 503 : 200,
          latency_ms: 10 + (i % 7),
          error: 'x'.repeat(200),
        },
        history: {
          check_guid: 'a',
          ran_at: ranAt,
          success: !failed,
          skipped: false,
          http_status: failed ? 503 : 200,
          latency_ms: 10 + (i % 7),
          error: '',
        },
      });
    };
    for (let i = 0; i < 11; i++) add(i);
    sink.flush();
    await clock.advance(10_000);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    disk.fill();

    for (let i = 11; i < 111; i++) add(i);
    await clock.advance(sinkDefaults.commitWindowMs);
    expect(live.get().storeProblem).toBeDefined();
    // Commits keep failing for a while; the rollups wait too, and count only what is saved.
    await clock.advance(15_000);
    expect(insight.window('a', '1h').uptime['1h']).toEqual({ runs: 11, failures: 3, skipped: 0 });
    disk.free();
    await clock.advance(10_000);
    expect(live.get().storeProblem).toBeUndefined();
    expect(sink.pending()).toBe(0);
    expect(outbox.count()).toBe(111);
    // The failed commits got as far as the history insert, and were tried again.
    expect(offered).toBeGreaterThan(111);
    expect(insight.window('a', '1h').uptime['1h']).toEqual({ runs: 111, failures: 28, skipped: 0 });
    insight.close();
    sink.close();
    db.close();
  });
});
