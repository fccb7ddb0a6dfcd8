// `status --json` (another process, reading the store) and the UI snapshot (the running agent)
// must agree on which checks run, for every kind of check.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src-main/agent/agent.ts';
import { openAgentStore } from '../../src-main/agent/store/agent-store.ts';
import { agentDefaults } from '../../src-main/agent/defaults.ts';
import { fileKeyVault } from '../../src-main/agent/identity/key-vault.ts';
import { applyDelta } from '../../src-main/agent/store/checks.ts';
import { runCli, tempDataDir } from '../support/cli.ts';
import { wireCheck } from '../support/wire-fixtures.ts';

const kinds = [
  { name: 'http', check: wireCheck({ guid: 'http', url: 'http://127.0.0.1:9/' }), runnable: true },
  { name: 'tcp', check: wireCheck({ guid: 'tcp', url: 'tcp://127.0.0.1:9' }), runnable: true },
  { name: 'interval 0', check: wireCheck({ guid: 'interval-0', interval_sec: 0 }), runnable: false },
  { name: 'disabled', check: wireCheck({ guid: 'disabled', enabled: false }), runnable: false },
  { name: 'private with its entry', check: wireCheck({ guid: 'private-defined', url: '' }), runnable: true },
  { name: 'private without its entry', check: wireCheck({ guid: 'private-missing', url: '' }), runnable: false },
  {
    name: 'private with its entry, interval 0',
    check: wireCheck({ guid: 'private-interval-0', url: '', interval_sec: 0 }),
    runnable: false,
  },
];

describe('runnable, decided once', () => {
  it('status --json and the UI snapshot agree for every kind of check', async () => {
    const dataDir = await tempDataDir();
    const store = openAgentStore(dataDir, agentDefaults);
    applyDelta(
      store.db,
      kinds.map((k) => k.check),
      '2026-11-21T10:00:00Z',
    );
    const file = join(dataDir, 'private.json');
    await writeFile(
      file,
      JSON.stringify({
        checks: ['private-defined', 'private-interval-0'].map((guid) => ({ guid, url: 'http://127.0.0.1:9/' })),
      }),
    );
    const agent = createAgent({ dataDir, vault: fileKeyVault(dataDir), store, privateChecksFile: file });
    await agent.start();
    try {
      const ui = new Map(agent.snapshot().checks.map((c) => [c.guid, c.runnable]));
      const status = await runCli(['status', '--json', '--data-dir', dataDir]);
      expect(status.code).toBe(0);
      const report = JSON.parse(status.stdout) as { checks: { guid: string; runnable: boolean }[] };
      const cli = new Map(report.checks.map((c) => [c.guid, c.runnable]));
      for (const kind of kinds) {
        expect({ kind: kind.name, ui: ui.get(kind.check.guid), cli: cli.get(kind.check.guid) }).toEqual({
          kind: kind.name,
          ui: kind.runnable,
          cli: kind.runnable,
        });
      }
    } finally {
      await agent.stop();
    }
  });
});
