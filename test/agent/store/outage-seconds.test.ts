import { describe, expect, it } from 'vitest';
import { outageSeconds } from '../../../src-main/agent/store/results-view.ts';

describe('outage length, one rule for the list, status and MonitorStatus', () => {
  it.each([
    { from: '2026-01-01T00:00:00.000Z', to: '2026-01-01T00:01:30.000Z', seconds: 90 },
    { from: '2026-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.499Z', seconds: 0 },
    { from: '2026-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.500Z', seconds: 1 },
    { from: '2026-01-01T00:00:10.000Z', to: '2026-01-01T00:00:00.000Z', seconds: 0 },
  ])('$from to $to is $seconds s', ({ from, to, seconds }) => expect(outageSeconds(from, to)).toBe(seconds));
});
