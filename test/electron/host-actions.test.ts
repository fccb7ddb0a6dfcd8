// The desktop host actions behind the IPC handlers: the file dialog, the logs folder, links.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { hostname } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent } from '../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../src-main/agent/identity/key-vault.ts';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { createHandlers, type InvokeHandler } from '../../src-main/ipc/handlers.ts';
import { desktopHostActions } from '../../src-main/electron/host-actions.ts';
import { createShellStore, type ShellStore } from '../../src-main/electron/settings.ts';
import { FakeDialog, FakeShell } from './fake-electron.ts';
import { memoryBacking, tempDir } from './support.ts';

let dir: { path: string; remove(): Promise<void> };
let agent: Agent;
let dialog: FakeDialog;
let shell: FakeShell;
let store: ShellStore;
let handle: InvokeHandler;

beforeEach(async () => {
  dir = await tempDir('host-');
  agent = createAgent({ dataDir: dir.path, vault: fileKeyVault(dir.path) });
  await agent.start();
  dialog = new FakeDialog();
  shell = new FakeShell();
  store = createShellStore(memoryBacking());
  const host = desktopHostActions({
    showOpenDialog: (options) => dialog.showOpenDialog(options),
    openPath: (path) => shell.openPath(path),
    openExternal: (url) => shell.openExternal(url),
    version: '0.1.0',
    platform: 'linux',
    logsFolder: join(dir.path, 'logs'),
    dataFolder: dir.path,
    keyStorage: { protection: 'os-encryption', description: 'Encrypted by the desktop keyring (gnome_libsecret)' },
  });
  handle = createHandlers({ agent, settings: store, host, log: silentLogger });
});

afterEach(async () => {
  await agent.stop();
  await dir.remove();
});

describe('desktop host actions', () => {
  it('chooses the private definitions file with a JSON file dialog', async () => {
    const file = join(dir.path, 'private.json');
    await writeFile(file, JSON.stringify({ checks: [] }));
    dialog.answer = { canceled: false, filePaths: [file] };
    const answer = await handle('private:choose-file', {});
    expect(answer.ok).toBe(true);
    expect((answer as { value: AgentSnapshot }).value.privateDefinitions.file).toBe(file);
    expect(store.get().privateChecksFile).toBe(file);
    expect(dialog.asked[0]).toMatchObject({ properties: ['openFile'], filters: [{ extensions: ['json'] }] });
  });

  it('changes nothing when the dialog is cancelled', async () => {
    const answer = await handle('private:choose-file', {});
    expect(answer.ok).toBe(true);
    expect(store.get().privateChecksFile).toBeUndefined();
  });

  it('opens the logs folder, and says what to do when it cannot', async () => {
    expect(await handle('app:open-logs', {})).toEqual({ ok: true, value: null });
    expect(shell.paths).toEqual([join(dir.path, 'logs')]);
    shell.openPathError = 'Failed to open path';
    const answer = await handle('app:open-logs', {});
    expect(answer).toEqual({ ok: false, error: { kind: 'logs-folder', path: join(dir.path, 'logs') } });
    // Electron's own text ('Failed to open path') stays out of the window's words.
    expect(answer.ok ? '' : ipcErrorWords(answer.error)).toMatch(/could not be opened; open it from your file manager/);
    expect(answer.ok ? '' : ipcErrorWords(answer.error)).not.toContain('Failed to open path');
  });

  it('opens https links only, without credentials', async () => {
    expect((await handle('app:open-external', { url: 'https://uptime.example/help' })).ok).toBe(true);
    expect((await handle('app:open-external', { url: 'https://me:pw@uptime.example/' })).ok).toBe(false);
    expect((await handle('app:open-external', { url: 'file:///etc/passwd' })).ok).toBe(false);
    expect(shell.opened).toEqual(['https://uptime.example/help']);
  });

  it('describes the installation in app:info', async () => {
    expect(await handle('app:info', {})).toEqual({
      ok: true,
      value: {
        version: '0.1.0',
        logsFolder: join(dir.path, 'logs'),
        dataFolder: dir.path,
        host: 'desktop',
        platform: 'linux',
        hostName: hostname(),
        keyStorage: 'Encrypted by the desktop keyring (gnome_libsecret)',
      },
    });
  });
});
