// What `status --json` knows of the running agent comes from one file with one freshness rule:
// live-state.json, written whole when what it says changes and at least once per period, stale
// when older than a few periods or when its writer is gone, removed when the agent stops.
// Pure: a temporary folder and the fake clock.
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { noPrivateDefinitions } from '../../../src-main/agent/checks/private-definitions/index.ts';
import {
  liveStateFile,
  openLiveStateWriter,
  readLiveState,
  staleAfterPeriods,
  type LiveStateDocument,
} from '../../../src-main/agent/live/live-state-file.ts';
import { heartbeatMs, startLivePublisher } from '../../../src-main/agent/live/publisher.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { createFakeClock } from '../../support/fake-clock.ts';
import { tempDataDir } from '../../support/temp-dir.ts';

const periodMs = 5_000;
const alive = (pid: number): boolean => pid === process.pid;

async function setup(enrolled = true) {
  const dataDir = await tempDataDir();
  const clock = createFakeClock();
  const live = createLiveState(initialState(new Date(clock.now()), 0));
  const publisher = startLivePublisher({
    dataDir,
    clock,
    live,
    tunables: { loadSampleMs: periodMs },
    identity: { current: () => (enrolled ? {} : undefined) },
    checkSet: { privateSummary: () => noPrivateDefinitions },
  });
  return { dataDir, clock, live, publisher, read: () => readLiveState(dataDir, alive, clock.now()) };
}

function documentAt(writtenAt: number, clockSkewSec = 5): LiveStateDocument {
  return {
    pid: process.pid,
    written_at: new Date(writtenAt).toISOString(),
    write_period_ms: periodMs,
    local_fault: null,
    load: null,
    clock_skew_sec: clockSkewSec,
    private_definitions: noPrivateDefinitions,
    store_problem: null,
    unsaved_results: 0,
    connection: null,
  };
}

describe('live-state.json', () => {
  it('is written at start, 0600, with its writer, one written_at and its period', async () => {
    const { dataDir, clock, read } = await setup();
    expect(statSync(liveStateFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(read()).toMatchObject({
      pid: process.pid,
      written_at: new Date(clock.now()).toISOString(),
      write_period_ms: heartbeatMs(periodMs),
      local_fault: null,
      load: null,
      clock_skew_sec: null,
      store_problem: null,
      unsaved_results: 0,
      connection: { state: 'connecting', since: null, last_success_at: null },
    });
  });

  it('says at once what changed: skew, store problem, load, connection', async () => {
    const { live, read } = await setup();
    live.update((s) => ({
      ...s,
      clockSkewSec: 90,
      storeProblem: 'the disk is full',
      unsavedResults: 12,
      load: {
        overloaded: true,
        executed: 6,
        skippedOverlap: 3,
        skippedBacklog: 1,
        startedAfterWait: 2,
        recentDue: 10,
        recentBacklog: 1,
        recentOverlap: 3,
        recentSkipped: 4,
        lagP99Ms: 40,
        runCap: 64,
      },
      loadSampledAt: '2026-11-21T10:00:00.000Z',
      connection: {
        state: 'unreachable',
        since: '2026-11-21T09:59:00.000Z',
        lastSuccessAt: '2026-11-21T09:58:00.000Z',
      },
    }));
    expect(read()).toMatchObject({
      clock_skew_sec: 90,
      store_problem: 'the disk is full',
      unsaved_results: 12,
      load: { overloaded: true, executed: 6, sampled_at: '2026-11-21T10:00:00.000Z' },
      connection: {
        state: 'unreachable',
        since: '2026-11-21T09:59:00.000Z',
        last_success_at: '2026-11-21T09:58:00.000Z',
      },
    });
  });

  it('a change that says nothing new is not written again', async () => {
    const { dataDir, live } = await setup();
    const before = readFileSync(liveStateFile(dataDir), 'utf8');
    live.update((s) => ({ ...s, paused: true }));
    expect(readFileSync(liveStateFile(dataDir), 'utf8')).toBe(before);
  });

  it('another call the server took is not a write of its own: its time goes with the next write', async () => {
    const { dataDir, clock, live, read } = await setup();
    const took = (at: number) =>
      live.update((s) => ({
        ...s,
        connection: {
          state: 'connected',
          since: '2026-11-21T09:00:00.000Z',
          lastSuccessAt: new Date(at).toISOString(),
        },
      }));
    took(clock.now());
    const connectedAt = new Date(clock.now()).toISOString();
    // Connected is news: written at once.
    expect(read()?.connection).toMatchObject({ state: 'connected', last_success_at: connectedAt });
    const before = readFileSync(liveStateFile(dataDir), 'utf8');
    await clock.advance(1_000);
    took(clock.now());
    const laterCall = new Date(clock.now()).toISOString();
    expect(readFileSync(liveStateFile(dataDir), 'utf8')).toBe(before);
    // The next write (here the heartbeat) carries it.
    await clock.advance(heartbeatMs(periodMs));
    expect(read()?.connection?.last_success_at).toBe(laterCall);
  });

  it('is rewritten every heartbeat period, so it stays fresh while the agent runs', async () => {
    const { clock, read } = await setup();
    await clock.advance(10 * heartbeatMs(periodMs));
    expect(read()?.written_at).toBe(new Date(clock.now()).toISOString());
  });

  it('a write for a change puts the heartbeat off: one write per load sample, not two', async () => {
    const { clock, live, read } = await setup();
    await clock.advance(periodMs / 2);
    const changedAt = new Date(clock.now()).toISOString();
    live.update((s) => ({ ...s, clockSkewSec: 7 }));
    // A heartbeat counted from the start would rewrite the file here.
    await clock.advance(periodMs);
    expect(read()?.written_at).toBe(changedAt);
    await clock.advance(heartbeatMs(periodMs) - periodMs);
    expect(read()?.written_at).toBe(new Date(clock.now()).toISOString());
  });

  it('is stale past the periods it may miss, or when its writer is gone', async () => {
    const { dataDir, clock, publisher } = await setup();
    const writtenAt = clock.now();
    publisher.close();
    // A killed agent leaves its last file behind: one as it would have written it.
    openLiveStateWriter(dataDir).write(documentAt(writtenAt));
    expect(readLiveState(dataDir, alive, writtenAt + staleAfterPeriods * periodMs)).toBeDefined();
    expect(readLiveState(dataDir, alive, writtenAt + staleAfterPeriods * periodMs + 1)).toBeUndefined();
    expect(readLiveState(dataDir, () => false, writtenAt)).toBeUndefined();
  });

  it('has no connection while not enrolled, and is removed when the agent stops', async () => {
    const { dataDir, publisher, read } = await setup(false);
    expect(read()?.connection).toBeNull();
    publisher.close();
    expect(() => statSync(liveStateFile(dataDir))).toThrow();
  });

  it('is still written when no new file can be made (out of descriptors, a full disk): in place, through the descriptor it kept', async () => {
    const dataDir = await tempDataDir();
    const writer = openLiveStateWriter(dataDir);
    expect(writer.write(documentAt(1_000, 1))).toBe(true);
    // The temporary file cannot be created: the same failure as EMFILE or ENOSPC at open.
    mkdirSync(`${liveStateFile(dataDir)}.${process.pid}.tmp`);
    expect(writer.write(documentAt(2_000, 2))).toBe(true);
    expect(readLiveState(dataDir, alive, 2_000)?.clock_skew_sec).toBe(2);
    // Removed by someone else: the kept descriptor is of no use, so the name is tried, and nothing is there.
    rmSync(liveStateFile(dataDir));
    expect(writer.write(documentAt(3_000, 3))).toBe(false);
    expect(readLiveState(dataDir, alive, 3_000)).toBeUndefined();
    writer.remove();
  });
});
