// The per-check figures every row of the UI shows (uptime %, latency sparkline,
// heartbeat) come from rings kept in pools shared by all checks: many checks, a check forgotten
// and its row taken by another, and a pool that grows must never mix one check's runs into
// another's figures. Pure: no store, entries built by hand.
import { describe, expect, it } from 'vitest';
import { beatCount, createCheckStats, latencyCeilingMs } from '../../../src-main/agent/store/check-stats.ts';
import type { HistoryEntry } from '../../../src-main/agent/store/history.ts';
import { wireLimits } from '../../../src-main/agent/wire/limits.ts';

const entry = (guid: string, i: number, success = true, skipped = false): HistoryEntry => ({
  check_guid: guid,
  ran_at: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
  success,
  skipped,
  http_status: success ? 200 : 500,
  latency_ms: 10 + i,
  error: success ? '' : 'HTTP 500',
});

describe('check stats', () => {
  it("keeps each check's figures apart across 200 checks (the pools grow past their first rows)", () => {
    const stats = createCheckStats(10, 5);
    for (let run = 0; run < 12; run++)
      for (let c = 0; c < 200; c++) stats.record(entry(`c${c}`, run, c % 2 === 0 || run % 3 !== 0));
    const even = stats.figures('c10');
    expect(even.uptimePct).toBe(100);
    expect(even.latency).toEqual([17, 18, 19, 20, 21]);
    expect(even.beats).toBe('uuuuuuuuuuuu');
    // Runs 0, 3, 6, 9 failed; the ring of 10 holds runs 2-11: 3, 6 and 9 failed.
    const odd = stats.figures('c199');
    expect(odd.uptimePct).toBe(70);
    expect(odd.beats).toBe('duuduuduuduu');
  });

  it('a latency slot holds the longest run exactly (two bytes a point); a longer figure reads as the ceiling', () => {
    // A run ends at its timeout: the longest the server may set is below what a slot holds.
    const longest = wireLimits.maxTimeoutSec * 1000;
    expect(longest).toBeLessThan(latencyCeilingMs);
    const stats = createCheckStats(10, 5);
    for (const latency_ms of [longest, longest + 1, latencyCeilingMs, latencyCeilingMs + 1, 1_000_000])
      stats.record({ ...entry('slow', 0), latency_ms });
    expect(stats.figures('slow').latency).toEqual([
      longest,
      longest + 1,
      latencyCeilingMs,
      latencyCeilingMs,
      latencyCeilingMs,
    ]);
  });

  it('a forgotten check leaves nothing behind for the check that takes its row', () => {
    const stats = createCheckStats(10, 5);
    for (let run = 0; run < 5; run++) stats.record(entry('gone', run, false));
    stats.forget('gone');
    expect(stats.figures('gone')).toEqual({ latency: [] });
    stats.record(entry('new', 0));
    expect(stats.figures('new')).toMatchObject({ uptimePct: 100, latency: [10], beats: 'u' });
  });

  it('skipped runs show in the heartbeat only, and the heartbeat keeps the last beatCount runs', () => {
    const stats = createCheckStats(10, 5);
    stats.record(entry('a', 0));
    stats.record(entry('a', 1, false, true));
    expect(stats.figures('a')).toMatchObject({ uptimePct: 100, latency: [10], beats: 'us' });
    for (let run = 2; run < beatCount + 10; run++) stats.record(entry('a', run, false));
    expect(stats.figures('a').beats).toBe('d'.repeat(beatCount));
  });

  it('agrees with a plain model of the rings over many runs, wraps and forgets (packed rows)', () => {
    // Odd sizes so rings end mid-byte; latencies up to a run's 60 s deadline.
    const slots = 13;
    const points = 7;
    const stats = createCheckStats(slots, points);
    type Model = { verdicts: boolean[]; latency: number[]; beats: string };
    const models = new Map<string, Model>();
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const guids = ['a', 'b', 'c', 'd', 'e'];
    for (let run = 0; run < 2_000; run++) {
      const guid = guids[Math.floor(random() * guids.length)] ?? 'a';
      if (random() < 0.01) {
        stats.forget(guid);
        models.delete(guid);
        continue;
      }
      const skipped = random() < 0.1;
      const success = random() < 0.7;
      const latency = Math.floor(random() * 60_000) + 1;
      stats.record({ ...entry(guid, run % 60, success, skipped), latency_ms: latency });
      const model = models.get(guid) ?? { verdicts: [], latency: [], beats: '' };
      models.set(guid, model);
      model.beats = (model.beats + (skipped ? 's' : success ? 'u' : 'd')).slice(-beatCount);
      if (!skipped) {
        model.verdicts = [...model.verdicts, success].slice(-slots);
        model.latency = [...model.latency, latency].slice(-points);
      }
      const figures = stats.figures(guid);
      const passes = model.verdicts.filter(Boolean).length;
      expect(figures.beats).toBe(model.beats);
      expect(figures.latency).toEqual(model.latency);
      expect(figures.uptimePct).toBe(model.verdicts.length === 0 ? undefined : (100 * passes) / model.verdicts.length);
    }
  });
});
