// A failing private check as the window's rows and overview see it: the row's last result says
// why it failed with the definition's values masked, as the run explanation and notifications
// do (results/privacy.ts shownError); only the check's own recent runs keep the real reason.
// The row once showed the history's real reason, so the overview's "down" list printed the
// private match string in clear.
import { afterEach, describe, expect, it } from 'vitest';
import { privateMask } from '../../../src-main/agent/results/privacy.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { runPrivateChecks } from '../checks/private-definitions/run-private-checks.ts';
import { startHttpTarget } from '../../targets/index.ts';

describe('the last result of a private check in the snapshot', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('is masked in the row and in the run explanation alike; the check history keeps the real reason', async () => {
    const target = await startHttpTarget({
      '/private-row-path-5151': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('nothing to see');
      },
    });
    const guid = 'priv-row-masked';
    h = await enrolledAgent();
    await runPrivateChecks(
      h,
      [{ guid, url: `http://127.0.0.1:${target.port}/private-row-path-5151`, match_string: 'row-needle-90210' }],
      5000,
    );
    await eventually(
      () => h.agent.snapshot().checks.find((c) => c.guid === guid)?.lastResult !== undefined,
      5000,
      'a row',
    );
    const row = h.agent.snapshot().checks.find((c) => c.guid === guid);
    expect(row?.lastResult?.success).toBe(false);
    expect(row?.lastResult?.error).toContain(privateMask);
    expect(row?.lastResult?.error).not.toContain('row-needle-90210');
    const explained = h.agent.insight.window(guid, '1h').lastRun;
    expect(explained?.error).toBe(row?.lastResult?.error);
    expect(h.agent.checkHistory(guid, 1)[0]?.error).toContain('row-needle-90210');
    await target.close();
  });
});
