// What the detail pane shows of one check over a window: the rollup buckets for the chart,
// uptime over 1 h / 24 h / 7 d, the last run explained and the check's recent events. The
// windows read whole buckets: minutes for 1 h and 24 h (exact), hours for 7 d.
import type { RunExplanation } from './run-explanation.ts';
import type { AgentEvent, EventLog } from '../store/events.ts';
import { bucketMs, type Resolution, type RollupBucket, type Rollups, type WindowCounts } from '../store/rollups.ts';

export const windowRanges = ['1h', '24h', '7d'] as const;
export type WindowRange = (typeof windowRanges)[number];

const spans: Record<WindowRange, { ms: number; resolution: Resolution }> = {
  '1h': { ms: 3_600_000, resolution: 'minute' },
  '24h': { ms: 86_400_000, resolution: 'minute' },
  '7d': { ms: 7 * 86_400_000, resolution: 'hour' },
};

export interface CheckWindow {
  range: WindowRange;
  fromMs: number;
  toMs: number;
  /** Width of one bucket of the series (60 s, or an hour for 7 d). */
  bucketMs: number;
  buckets: RollupBucket[];
  uptime: Record<WindowRange, WindowCounts>;
  lastRun?: RunExplanation;
  /** This check's newest events. */
  events: AgentEvent[];
}

export interface CheckWindowSources {
  rollups: Rollups;
  events: EventLog;
  lastRun(guid: string): RunExplanation | undefined;
}

export function checkWindow(
  sources: CheckWindowSources,
  guid: string,
  range: WindowRange,
  nowMs: number,
  eventLimit = 20,
): CheckWindow {
  const span = spans[range];
  // The bucket in progress counts: the window ends just after now.
  const toMs = nowMs + 1;
  const fromMs = toMs - span.ms;
  const counts = (r: WindowRange): WindowCounts =>
    sources.rollups.counts(guid, spans[r].resolution, toMs - spans[r].ms, toMs);
  const lastRun = sources.lastRun(guid);
  return {
    range,
    fromMs,
    toMs,
    bucketMs: bucketMs[span.resolution],
    buckets: sources.rollups.series(guid, span.resolution, fromMs, toMs),
    uptime: { '1h': counts('1h'), '24h': counts('24h'), '7d': counts('7d') },
    ...(lastRun === undefined ? {} : { lastRun }),
    events: sources.events.list({ guid, limit: eventLimit }),
  };
}
