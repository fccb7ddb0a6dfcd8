// Issue 10 §2 (clock skew): the server's Date header is compared with this machine's clock on
// every API answer; more than a minute apart is a problem in the window, `clock_skew_sec` in
// `status --json` and one log line. Results keep this machine's wall clock. The agent's clock is
// injected: the reference server answers with the real time, the agent believes it is 5 min later.
import { problemText } from '../../../src-main/ipc/problem-words.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src-main/agent/base/clock.ts';
import { systemClock } from '../../../src-main/agent/base/clock.ts';
import { createLogger } from '../../../src-main/agent/base/log.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { statusReport } from '../../../src-main/agent/read/status-report.ts';
import { readLiveState } from '../../../src-main/agent/live/live-state-file.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

const aheadMs = 5 * 60_000;
const skewed: Clock = { ...systemClock, now: () => Date.now() + aheadMs };

describe('clock skew against the server', () => {
  let h: Harness;
  let target: HttpTarget;
  let targetUrl: string;
  beforeAll(async () => {
    target = await startHttpTarget({ '/': { body: 'ok' } });
    targetUrl = `${target.url}/`;
  });
  afterAll(() => target.close());
  afterEach(() => h.close());

  it('says so once when the clocks differ by more than a minute; results keep the local clock', async () => {
    const lines: string[] = [];
    const log = createLogger({ write: (line: string) => void lines.push(line) });
    h = await enrolledAgent({ agent: { clock: skewed, log } });
    h.assignCheck({ name: 'C', url: targetUrl, interval_sec: 1 });
    await eventually(() => h.server.results(h.monitorId).length > 0, 10_000, 'a result');
    const skew = h.agent.state().clockSkewSec ?? 0;
    expect(skew).toBeLessThanOrEqual(-299);
    expect(skew).toBeGreaterThanOrEqual(-301);
    const problem = h.agent.snapshot().problems.find((p) => p.kind === 'clock-skew');
    expect(problem === undefined ? '' : problemText(problem)).toContain('5 minutes ahead of');
    expect(lines.filter((l) => l.includes('clock is') && l.includes('ahead of'))).toHaveLength(1);
    // ran_at stays this machine's wall clock (5 minutes ahead of the server's).
    const ranAt = Date.parse(h.server.results(h.monitorId)[0]?.ranAt ?? '');
    expect(ranAt - Date.now()).toBeGreaterThan(aheadMs - 60_000);
    // status --json reads it from the running agent's live-state.json.
    const db = openDatabase(`${h.dataDir}/agent.db`);
    try {
      const live = readLiveState(h.dataDir, (pid) => pid === process.pid, Date.now());
      expect(statusReport(db, undefined, true, live).clock_skew_sec).toBe(skew);
    } finally {
      db.close();
    }
  });

  it('says nothing when the clocks agree', async () => {
    h = await enrolledAgent();
    await eventually(() => h.agent.state().clockSkewSec !== undefined, 10_000, 'a measurement');
    expect(Math.abs(h.agent.state().clockSkewSec ?? 99)).toBeLessThanOrEqual(2);
    expect(h.agent.snapshot().problems.map((p) => p.kind)).not.toContain('clock-skew');
  });
});
