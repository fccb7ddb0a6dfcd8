// The overload verdict (schedule/load.ts): pure, table-driven, on made-up scheduler totals.
import { describe, expect, it } from 'vitest';
import { createLoadWatch, loadVerdict, type RunCounts } from '../../../src-main/agent/schedule/load.ts';
import { newLagCounts, recordLag } from '../../../src-main/agent/schedule/lag.ts';

const options = { windowMs: 60_000 };
const counts = (executed: number, skippedOverlap = 0, skippedBacklog = 0, startedAfterWait = 0): RunCounts => ({
  executed,
  skippedOverlap,
  skippedBacklog,
  startedAfterWait,
});

describe('loadVerdict', () => {
  const cases: { name: string; first: RunCounts; last: RunCounts; overloaded: boolean; recentSkipped: number }[] = [
    { name: 'every due run executed', first: counts(0), last: counts(60_000), overloaded: false, recentSkipped: 0 },
    {
      name: 'one slow check among many (overlaps under the share)',
      first: counts(0),
      last: counts(60_000, 59),
      overloaded: false,
      recentSkipped: 59,
    },
    {
      name: 'slow targets overlapping their own next run (35 hostile checks): not the agent, counted apart',
      first: counts(0),
      last: counts(65, 35),
      overloaded: false,
      recentSkipped: 35,
    },
    {
      name: 'a single run held behind the concurrency cap',
      first: counts(0),
      last: counts(60_000, 0, 1),
      overloaded: true,
      recentSkipped: 1,
    },
    {
      name: 'skips before the window only',
      first: counts(1000, 500, 20),
      last: counts(61_000, 500, 20),
      overloaded: false,
      recentSkipped: 0,
    },
    { name: 'nothing due at all', first: counts(5), last: counts(5), overloaded: false, recentSkipped: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const report = loadVerdict(c.first, c.last);
      expect({ overloaded: report.overloaded, recentSkipped: report.recentSkipped }).toEqual({
        overloaded: c.overloaded,
        recentSkipped: c.recentSkipped,
      });
      expect(report.skippedOverlap).toBe(c.last.skippedOverlap);
      expect(report.recentBacklog + report.recentOverlap).toBe(report.recentSkipped);
      expect(report.skippedBacklog).toBe(c.last.skippedBacklog);
    });
  }
});

describe('createLoadWatch', () => {
  it('judges only the last window: an overload clears a window after the skips stop', () => {
    const watch = createLoadWatch(options);
    expect(watch.record(0, counts(0)).overloaded).toBe(false);
    // A burst: 200 of 1,000 due runs held behind the concurrency cap within the first 5 s.
    // 300 of the 800 that started waited for a free slot first.
    expect(watch.record(5_000, counts(800, 0, 200, 300)).overloaded).toBe(true);
    // Skips stop; still inside the window of the burst.
    let at = 5_000;
    let executed = 800;
    while (at < 60_000) {
      at += 5_000;
      executed += 1_000;
      expect(watch.record(at, counts(executed, 0, 200, 300)).overloaded).toBe(true);
    }
    // One sample later the burst's baseline has left the window.
    const after = watch.record(at + 5_000, counts(executed + 1_000, 0, 200, 300));
    expect(after).toMatchObject({ overloaded: false, recentSkipped: 0, skippedBacklog: 200, startedAfterWait: 300 });
  });
});

describe('createLoadWatch lag', () => {
  it('gives the lag p99 of the runs started within the window only', () => {
    const watch = createLoadWatch(options);
    const lag = newLagCounts();
    expect(watch.record(0, { ...counts(0), lag }).lagP99Ms).toBe(null);
    // A late burst in the first 5 s: 1,000 runs 300 ms late.
    for (let i = 0; i < 1_000; i++) recordLag(lag, 300);
    expect(watch.record(5_000, { ...counts(1_000), lag })).toMatchObject({ lagP99Ms: 300, executed: 1_000 });
    let at = 5_000;
    let executed = 1_000;
    while (at < 60_000) {
      at += 5_000;
      executed += 1_000;
      for (let i = 0; i < 1_000; i++) recordLag(lag, 2);
      // The watch keeps its own copies: the live counters moving on do not change a baseline.
      expect(watch.record(at, { ...counts(executed), lag }).lagP99Ms).toBe(300);
    }
    // The burst left the window: on time again.
    for (let i = 0; i < 1_000; i++) recordLag(lag, 1);
    expect(watch.record(at + 5_000, { ...counts(executed + 1_000), lag }).lagP99Ms).toBe(2);
  });

  it('has no lag figure without lag counts', () => {
    expect(createLoadWatch(options).record(0, counts(3)).lagP99Ms).toBe(null);
  });

  it('reports the cap on runs at once of the newest sample, and none when the sample carries none', () => {
    const watch = createLoadWatch(options);
    expect(watch.record(0, { ...counts(0), cap: 256 }).runCap).toBe(256);
    expect(watch.record(5_000, { ...counts(1_000), cap: 64 }).runCap).toBe(64);
    expect(createLoadWatch(options).record(0, counts(3)).runCap).toBe(null);
  });
});
