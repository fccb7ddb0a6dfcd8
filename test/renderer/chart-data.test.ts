import { describe, expect, it } from 'vitest';
import { axisTimes, chartData, chartSummary, uptimeSentence } from '../../src-renderer/checks/chart-data.ts';
import { eventText } from '../../src-renderer/events/event-text.ts';
import { runsEvery, shortWhen, timeOfDay } from '../../src-renderer/format.ts';

const t0 = Date.parse('2026-11-21T10:00:00.000Z');
const lat = (median: number, max: number) => ({ min: median, median, p95: max, max });

describe('latency chart data', () => {
  it('aligns time, median, p95 and failure marks; a bucket with nothing back is a gap', () => {
    const data = chartData([
      { startMs: t0, runs: 2, failures: 0, skipped: 0, latency: lat(10, 20) },
      { startMs: t0 + 60_000, runs: 2, failures: 1, skipped: 0, latency: lat(12, 90) },
      { startMs: t0 + 120_000, runs: 1, failures: 1, skipped: 0 },
    ]);
    expect(data).toEqual([
      [t0 / 1000, t0 / 1000 + 60, t0 / 1000 + 120],
      [10, 12, null],
      [20, 90, null],
      [null, 90, 0],
    ]);
  });

  it('says the chart in words', () => {
    expect(chartSummary([], 'the last hour', 60_000)).toBe('No runs over the last hour.');
    expect(
      chartSummary(
        [
          { startMs: t0, runs: 1, failures: 0, skipped: 0, latency: lat(10, 30) },
          { startMs: t0 + 60_000, runs: 1, failures: 1, skipped: 0 },
        ],
        'the last hour',
        60_000,
      ),
    ).toBe('Latency over the last hour: typically 10 ms, at worst 30 ms; failed runs in 1 of 2 periods of 1 min.');
  });

  it('names the window of an uptime figure, leaving skipped runs out', () => {
    expect(uptimeSentence({ runs: 1440, failures: 12, skipped: 0 }, 'the last 24 hours')).toBe(
      '99.2 % over the last 24 hours (1,440 runs, 12 failed)',
    );
    expect(uptimeSentence({ runs: 10, failures: 0, skipped: 10 }, 'the last hour')).toBe('No runs over the last hour');
  });
});

describe("the chart's times", () => {
  // Local times, built from local fields so that the test holds in every time zone.
  const at = (day: number, hour: number, minute = 0): number => new Date(2026, 10, day, hour, minute).getTime();
  const now = at(24, 17, 30);
  const uPlotDefault = /\d{4}-\d\d-\d\d|\d(am|pm)\b/;

  it("says the legend's time as the window does: today, yesterday, or the day", () => {
    expect(shortWhen(at(24, 17, 13), now)).toBe(`Today ${timeOfDay(at(24, 17, 13))}`);
    expect(shortWhen(at(23, 23, 40), now)).toBe(`Yesterday ${timeOfDay(at(23, 23, 40))}`);
    expect(shortWhen(at(20, 9, 5), now)).toMatch(new RegExp(`20.*${timeOfDay(at(20, 9, 5))}$`));
    for (const ms of [at(24, 17, 13), at(23, 23, 40), at(20, 9, 5)])
      expect(shortWhen(ms, now)).not.toMatch(uPlotDefault);
  });

  it('labels the time axis with times of day, naming a day only where one begins', () => {
    const hour = [at(24, 16, 40), at(24, 16, 50), at(24, 17, 0), at(24, 17, 10)];
    expect(axisTimes(hour, now)).toEqual(hour.map(timeOfDay));
    const overMidnight = axisTimes([at(23, 20), at(24, 0), at(24, 4)], now);
    expect(overMidnight[0]).toMatch(new RegExp(`^${timeOfDay(at(23, 20))}\\n.*23`));
    expect(overMidnight[1]).not.toContain(timeOfDay(at(24, 0)));
    expect(overMidnight[1]).toMatch(/24/);
    expect(overMidnight[2]).toBe(timeOfDay(at(24, 4)));
    for (const label of overMidnight) expect(label).not.toMatch(uPlotDefault);
    // Midnight is the day itself, also on the first tick of today.
    expect(axisTimes([at(24, 0), at(24, 12)], now)).toEqual([expect.stringMatching(/24/), timeOfDay(at(24, 12))]);
  });
});

describe('events in words', () => {
  const now = Date.parse('2026-11-21T10:45:00.000Z');
  it.each([
    {
      name: 'a check down, then up',
      event: {
        id: 1,
        kind: 'down' as const,
        checkGuid: 's',
        checkName: 'Shop',
        startedAt: '2026-11-21T10:28:00.000Z',
        endedAt: '2026-11-21T10:41:00.000Z',
        reason: 'status 503',
        endReason: 'status 200',
      },
      title: /^Shop down .+ → up .+, down for 13 min$/,
      tone: 'ok',
    },
    {
      name: 'a check still down',
      event: {
        id: 2,
        kind: 'down' as const,
        checkGuid: 's',
        checkName: 'Shop',
        startedAt: '2026-11-21T10:38:00.000Z',
        reason: 'status 503',
      },
      title: /^Shop down for 7 min \(since .+\)$/,
      tone: 'bad',
    },
    {
      name: 'an outage of the agent',
      event: {
        id: 3,
        kind: 'offline' as const,
        checkGuid: '',
        checkName: '',
        startedAt: '2026-11-21T10:02:00.000Z',
        endedAt: '2026-11-21T10:05:00.000Z',
        reason: 'no connectivity target answered',
      },
      title: /^Offline .+–.+ \(3 min\)$/,
      tone: 'info',
    },
    {
      name: 'a one-off',
      event: {
        id: 4,
        kind: 'key-rejected' as const,
        checkGuid: '',
        checkName: '',
        startedAt: '2026-11-21T10:02:00.000Z',
        endedAt: '2026-11-21T10:02:00.000Z',
        reason: 'the server refused the API key',
      },
      title: /^API key refused by the server at .+$/,
      tone: 'warn',
    },
    {
      name: 'a test run',
      event: {
        id: 5,
        kind: 'test-run' as const,
        checkGuid: 's',
        checkName: 'Shop',
        startedAt: '2026-11-21T10:02:00.000Z',
        endedAt: '2026-11-21T10:02:00.000Z',
        reason: 'test run from the window passed (not uploaded)',
      },
      title: /^Shop: test run at .+$/,
      tone: 'info',
    },
  ])('$name', ({ event, title, tone }) => {
    const text = eventText(event, now);
    expect(text.title).toMatch(title);
    expect(text.tone).toBe(tone);
  });
});

describe('how often a check runs here', () => {
  it('says when monitors take turns on it', () => {
    expect(runsEvery({ intervalSec: 30, effectiveIntervalSec: 30, sharedBy: 1 })).toBe('every 30 s');
    expect(runsEvery({ intervalSec: 30, effectiveIntervalSec: 90, sharedBy: 3 })).toBe(
      'every 1 min 30 s here, shared by 3 monitors (each 30 s one of them runs it)',
    );
  });
});
