// The open buckets' memory over an agent's life (issue 26: memory flat after warm-up). A bucket's
// latency counters cover the stretch of slots its runs reach; a slow run widens that stretch, and
// it must not stay widened for the buckets after it. Pure.
import { describe, expect, it } from 'vitest';
import { createOpenBuckets, type OpenBuckets, type RollupRun } from '../../../src-main/agent/store/rollup-buckets.ts';
import { seededRandom } from '../../support/seeded-random.ts';

const checks = 50;

/** Two hours and two minutes of 1 s runs of every check; `slow` says which runs took 3 s more. */
function live(slow: (second: number, check: number) => boolean): OpenBuckets {
  const buckets = createOpenBuckets(64);
  const random = seededRandom(26);
  for (let second = 0; second < 2 * 3600 + 120; second++) {
    const runs: RollupRun[] = [];
    for (let check = 0; check < checks; check++) {
      // The same draws for both agents: only the slow runs differ.
      const latencyMs = 8 + Math.floor(random() * 6) + (slow(second, check) ? 3_000 : 0);
      runs.push({ guid: `check-${check}`, ranAtMs: second * 1000 + check, success: true, skipped: false, latencyMs });
    }
    buckets.record(runs);
    // As the store writes them, so nothing is left behind.
    buckets.written(buckets.unwritten());
  }
  return buckets;
}

describe('open rollup buckets', () => {
  it('hold no more for a check whose earlier buckets had a slow run than for one that never had', () => {
    const quiet = live(() => false);
    // A slow run every ten minutes of the first hour, for every check.
    const once = live((second) => second < 3600 && second % 600 === 0);
    expect(quiet.held().open).toBe(once.held().open);
    expect(once.held().latencyBytes).toBe(quiet.held().latencyBytes);
    // Two buckets a check, each in a stretch of 16 or 32 one-byte counters (32 when its first run
    // was at the top of the 8-13 ms its runs take), as a fresh agent's.
    expect(quiet.held().latencyBytes).toBeLessThanOrEqual(checks * 2 * 32);
  });
});
