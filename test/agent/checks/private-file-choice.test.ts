// Choosing another private-definitions file never replaces a working one with a missing or
// broken file: the definitions in force stay, and the error says so. A relative path is refused
// from the window (the agent's working folder is not the user's).
import { ipcErrorWords } from '../../../src-main/ipc/ipc-error-words.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent } from '../../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { fileSettingsStore } from '../../../src-main/cli/dashboard/index.ts';
import { webHostActions } from '../../../src-main/cli/dashboard/web-host.ts';
import { createHandlers } from '../../../src-main/ipc/handlers.ts';
import { tempDataDir } from '../../support/cli.ts';

describe('choosing a private definitions file', () => {
  let agent: Agent;
  afterEach(() => agent.stop());

  it('keeps the working file when the new one is missing or broken, and refuses a relative path', async () => {
    const dataDir = await tempDataDir();
    const good = join(dataDir, 'good.json');
    const broken = join(dataDir, 'broken.json');
    await writeFile(good, JSON.stringify({ checks: [{ guid: 'g1', url: 'http://127.0.0.1:9/' }] }));
    await writeFile(broken, '{ "checks": [ ');
    agent = createAgent({ dataDir, vault: fileKeyVault(dataDir) });
    await agent.start();
    const settings = fileSettingsStore(dataDir);
    const invoke = createHandlers({ agent, settings, host: webHostActions(dataDir, silentLogger), log: silentLogger });

    expect(await invoke('private:choose-file', { file: good })).toMatchObject({ ok: true });
    expect(agent.snapshot().privateDefinitions.file).toBe(good);

    for (const file of [broken, join(dataDir, 'missing.json')]) {
      const answer = await invoke('private:choose-file', { file });
      expect(answer.ok).toBe(false);
      expect(answer.ok ? undefined : answer.error).toMatchObject({ kind: 'private-file-refused', path: good });
      expect(answer.ok ? '' : ipcErrorWords(answer.error)).toContain(`The definitions from ${good} stay in force.`);
      expect(agent.snapshot().privateDefinitions).toMatchObject({ file: good });
      expect(agent.snapshot().privateDefinitions.fileError).toBeUndefined();
      expect(settings.get().privateChecksFile).toBe(good);
    }

    const relative = await invoke('private:choose-file', { file: 'checks.json' });
    expect(relative.ok ? undefined : relative.error).toEqual({ kind: 'not-full-path', path: 'checks.json' });
    expect(relative.ok ? '' : ipcErrorWords(relative.error)).toContain('"checks.json" is not a full path');
  });
});
