import { describe, expect, it } from 'vitest';
import { createAgent } from '../../../src-main/agent/agent.ts';
import { openAgentStore } from '../../../src-main/agent/store/agent-store.ts';
import { agentDefaults } from '../../../src-main/agent/defaults.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { statusReport } from '../../../src-main/agent/read/status-report.ts';
import { applyDelta } from '../../../src-main/agent/store/checks.ts';
import { tempDataDir } from '../../support/cli.ts';
import { wireCheck } from '../../support/wire-fixtures.ts';

describe('agent snapshot', () => {
  it('lists a damaged settings file as a problem until saved settings replace it', async () => {
    const dataDir = await tempDataDir();
    const problem = 'The settings in settings.json cannot be read (it is not complete JSON): …';
    const agent = createAgent({
      dataDir,
      vault: fileKeyVault(dataDir),
      network: { egressPolicy: 'strict', settingsProblem: problem },
    });
    expect(agent.snapshot().problems).toContainEqual(
      expect.objectContaining({ kind: 'settings-problem', detail: problem }),
    );
    expect(agent.snapshot().egressPolicy).toBe('strict');
    await agent.setNetwork({ egressPolicy: 'open' });
    expect(agent.snapshot().problems.map((p) => p.kind)).not.toContain('settings-problem');
    await agent.stop();
  });

  it('rebuilds per-check figures from the kept history after a restart, and redacts targets', async () => {
    const dataDir = await tempDataDir();
    const store = openAgentStore(dataDir, agentDefaults);
    const first = createAgent({ dataDir, vault: fileKeyVault(dataDir), store });
    applyDelta(
      store.db,
      [
        wireCheck({ guid: 'a', name: 'A', url: 'https://user:pa55word@example.test/x' }),
        wireCheck({ guid: 'p', name: 'P', url: '' }),
      ],
      't1',
    );
    store.history.insert(
      [true, true, false, true].map((success, i) => ({
        check_guid: 'a',
        ran_at: `2026-11-21T10:00:0${i}.000Z`,
        success,
        skipped: false,
        http_status: success ? 200 : 503,
        latency_ms: 10 + i,
        error: success ? '' : 'status 503, expected less than 400',
      })),
    );
    await first.stop();

    const again = createAgent({ dataDir, vault: fileKeyVault(dataDir) });
    await again.start();
    const snapshot = again.snapshot();
    const a = snapshot.checks.find((c) => c.guid === 'a');
    expect(a).toMatchObject({ type: 'https', uptimePct: 75, latency: [10, 11, 12, 13], lastResult: { success: true } });
    expect(a?.target).toBe('https://user:***@example.test/x');
    expect(JSON.stringify(snapshot)).not.toContain('pa55word');
    expect(snapshot.checks.find((c) => c.guid === 'p')).toMatchObject({
      type: 'private',
      target: 'private',
      runnable: false,
      health: 'not-run',
    });
    expect(snapshot.problems.map((p) => p.kind)).toEqual(['private-missing']);
    expect(snapshot.enrolled).toBe(false);
    await again.stop();
  });

  it('shows how often a shared check runs here: interval_sec times the monitors taking turns (also in status --json)', async () => {
    const dataDir = await tempDataDir();
    const store = openAgentStore(dataDir, agentDefaults);
    const agent = createAgent({ dataDir, vault: fileKeyVault(dataDir), store });
    applyDelta(
      store.db,
      [
        wireCheck({ guid: 'shared', interval_sec: 30, monitor_count: 3, monitor_rank: 1 }),
        wireCheck({ guid: 'alone', interval_sec: 30 }),
      ],
      't1',
    );
    await agent.start();
    const views = agent.snapshot().checks;
    expect(views.find((c) => c.guid === 'shared')).toMatchObject({
      intervalSec: 30,
      effectiveIntervalSec: 90,
      sharedBy: 3,
    });
    expect(views.find((c) => c.guid === 'alone')).toMatchObject({
      intervalSec: 30,
      effectiveIntervalSec: 30,
      sharedBy: 1,
    });
    const report = statusReport(store.db, undefined, false).checks;
    expect(report.find((c) => c.guid === 'shared')).toMatchObject({
      interval_sec: 30,
      effective_interval_sec: 90,
      shared_by: 3,
    });
    expect(report.find((c) => c.guid === 'alone')).toMatchObject({
      interval_sec: 30,
      effective_interval_sec: 30,
      shared_by: 1,
    });
    await agent.stop();
  });
});
