// A private check whose entry in the definitions file has a bad field is shown as such: which
// field and what to change, not "no local definition"; its kept history stays (issue 25).
import { problemText } from '../../../src-main/ipc/problem-words.ts';
import { privateEarlierError } from '../../../src-main/agent/results/privacy.ts';
import { statusReport } from '../../../src-main/agent/read/status-report.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../../src-main/agent/agent.ts';
import { agentDefaults } from '../../../src-main/agent/defaults.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { openAgentStore } from '../../../src-main/agent/store/agent-store.ts';
import { applyDelta } from '../../../src-main/agent/store/checks.ts';
import { tempDataDir } from '../../support/cli.ts';
import { wireCheck } from '../../support/wire-fixtures.ts';

describe('a private entry with a field error', () => {
  it('the snapshot names the field and what to change, and keeps the check’s last result', async () => {
    const dataDir = await tempDataDir();
    const file = join(dataDir, 'private.json');
    await writeFile(
      file,
      JSON.stringify({
        checks: [
          { guid: 'p', url: 'ftp://intranet.example/health' },
          { guid: 'q', url: 'https://a.example' },
        ],
      }),
    );
    const store = openAgentStore(dataDir, agentDefaults);
    applyDelta(
      store.db,
      [
        wireCheck({ guid: 'p', name: 'Payroll', url: '' }),
        wireCheck({ guid: 'q', name: 'Quotes', url: '' }),
        wireCheck({ guid: 'r', name: 'Rota', url: '' }),
      ],
      't1',
    );
    store.history.insert([
      {
        check_guid: 'p',
        ran_at: '2026-11-21T10:00:00.000Z',
        success: false,
        skipped: false,
        http_status: 503,
        latency_ms: 12,
        error: 'status 503, expected 200',
      },
    ]);
    // status --json reads the store's entry: its reason is left out as on the window's row.
    expect(statusReport(store.db, undefined, false).checks.find((c) => c.guid === 'p')?.last_result).toMatchObject({
      success: false,
      http_status: 503,
      error: privateEarlierError,
    });
    // The figures come from the kept history when the store opens: as after a restart.
    await createAgent({ dataDir, vault: fileKeyVault(dataDir), store }).stop();
    const agent = createAgent({ dataDir, vault: fileKeyVault(dataDir), privateChecksFile: file });
    await agent.start();
    const snapshot = agent.snapshot();
    const payroll = snapshot.checks.find((c) => c.guid === 'p');
    expect(payroll).toMatchObject({
      runnable: false,
      entryErrors: [{ field: 'url', detail: 'url must start with http://, https://, tcp:// or tls://' }],
      lastResult: { success: false, http_status: 503 },
    });
    // Its reason from before this start was never masked: the row does not show it.
    expect(payroll?.lastResult?.error).toBe(privateEarlierError);
    expect(payroll?.notRunReason).toContain('its entry in the private definitions file cannot be used: url must start');
    expect(payroll?.notRunReason).not.toContain('without a local definition');
    expect(snapshot.privateDefinitions.invalid).toEqual([{ guid: 'p', name: 'Payroll' }]);
    expect(snapshot.privateDefinitions.missing).toEqual([{ guid: 'r', name: 'Rota' }]);
    expect(snapshot.problems.map((p) => p.kind)).toEqual(['private-missing', 'private-invalid']);
    const invalid = snapshot.problems.find((p) => p.kind === 'private-invalid');
    expect(invalid).toMatchObject({ checks: [{ guid: 'p', name: 'Payroll' }] });
    expect(invalid === undefined ? '' : problemText(invalid)).toBe(
      'The private check Payroll is not run: its entry in the definitions file has an error. Fix the fields named in Private definitions and save the file.',
    );
    expect(JSON.stringify(snapshot)).not.toContain('intranet.example');
    await agent.stop();
  });
});
