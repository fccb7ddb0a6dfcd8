// The agent's store, on a real file, sizes SQLite's page cache to the results a second its
// recording commits (store/page-cache.ts): light for a desktop's checks and at 1,000 a second,
// SQLite's full cache once a window runs busy, light again when the load falls.
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { agentDefaults } from '../../../src-main/agent/defaults.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { createRecording } from '../../../src-main/agent/results/recording.ts';
import type { ResultSink } from '../../../src-main/agent/results/result-sink.ts';
import { openAgentStore, type AgentStore } from '../../../src-main/agent/store/agent-store.ts';
import { busyFromResultsPerSec, pageCacheKib } from '../../../src-main/agent/store/page-cache.ts';
import type { WireResult } from '../../../src-main/agent/wire/schemas.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';
import { sqliteCacheKib } from '../../support/sqlite-cache.ts';
import { tempDataDir } from '../../support/temp-dir.ts';

let store: AgentStore | undefined;
afterEach(() => store?.close());

async function recordingOn(clock: FakeClock): Promise<{ store: AgentStore; sink: ResultSink }> {
  const dataDir = await tempDataDir();
  const opened = openAgentStore(dataDir, agentDefaults, silentLogger, new Date(clock.now()));
  store = opened;
  const sink = createRecording({
    store: opened,
    insight: { committed: () => undefined },
    clock,
    log: silentLogger,
    live: createLiveState(initialState(new Date(clock.now()), 0)),
    dataDir,
    onBatchWaiting: () => undefined,
    onRecovered: () => undefined,
    holds: () => true,
  });
  return { store: opened, sink };
}

/** `perSec` runs a second of 100 checks for `seconds`, through the sink and its commit window. */
async function run(sink: ResultSink, clock: FakeClock, perSec: number, seconds: number): Promise<void> {
  const perTick = perSec / 10;
  for (let tick = 0; tick < seconds * 10; tick++) {
    for (let i = 0; i < perTick; i++) {
      const result: WireResult = {
        check_guid: `check-${i % 100}`,
        monitor_id: 'abcdefghjkmn',
        ran_at: new Date(clock.now()).toISOString(),
        success: true,
        http_status: 200,
        latency_ms: 3,
      };
      const { monitor_id: _m, ...entry } = result;
      sink.add({ result, history: { ...entry, skipped: false, error: '' } });
    }
    await clock.advance(100);
  }
}

describe('the store page cache follows the results a second committed', () => {
  it('light at 1,000 a second, full past the busy rate, light again after', async () => {
    const clock = createFakeClock();
    const { store: s, sink } = await recordingOn(clock);
    expect(sqliteCacheKib(s.db)).toBe(pageCacheKib.light);
    await run(sink, clock, 1_000, 12);
    expect(sqliteCacheKib(s.db)).toBe(pageCacheKib.light);
    await run(sink, clock, busyFromResultsPerSec + 500, 12);
    expect(sqliteCacheKib(s.db)).toBe(pageCacheKib.busy);
    await run(sink, clock, 200, 12);
    expect(sqliteCacheKib(s.db)).toBe(pageCacheKib.light);
    expect(s.outbox.count()).toBe(1_000 * 12 + (busyFromResultsPerSec + 500) * 12 + 200 * 12);
  });
});
