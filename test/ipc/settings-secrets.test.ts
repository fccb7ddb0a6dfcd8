// The proxy password never crosses the bridge (issue 27 point 6): the settings read returns the
// proxy URL with its password masked, and saving that masked URL back keeps the stored password.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent } from '../../src-main/agent/agent.ts';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { fileKeyVault } from '../../src-main/agent/identity/key-vault.ts';
import { fileSettingsStore } from '../../src-main/cli/dashboard/settings-file.ts';
import type { Settings } from '../../src-main/ipc/contract.ts';
import { createHandlers, type InvokeHandler, type SettingsStore } from '../../src-main/ipc/handlers.ts';
import { keepStoredProxyPassword, maskProxyPassword } from '../../src-main/ipc/settings-secrets.ts';
import { tempDataDir } from '../support/temp-dir.ts';

const saved = 'http://alice:s3cret-pw@proxy.office:3128';

describe('settings:get and settings:update keep the proxy password on the agent side', () => {
  let agent: Agent;
  let store: SettingsStore;
  let invoke: InvokeHandler;
  beforeEach(async () => {
    const dataDir = await tempDataDir();
    agent = createAgent({ dataDir, vault: fileKeyVault(dataDir) });
    store = fileSettingsStore(dataDir);
    store.update({ proxyUrl: saved, checksUseProxy: true });
    invoke = createHandlers({
      agent,
      settings: store,
      host: {
        info: () => {
          throw new Error('not used');
        },
        chooseFile: () => Promise.resolve(undefined),
        openLogsFolder: () => Promise.resolve(),
        openExternal: () => Promise.resolve(),
      },
      log: silentLogger,
    });
  });
  afterEach(() => agent.stop());

  const value = async (channel: string, args: unknown): Promise<Settings> => {
    const answer = await invoke(channel, args);
    if (!answer.ok) throw new Error(answer.error.kind);
    return answer.value as Settings;
  };

  it('reads the proxy URL with its password masked', async () => {
    const read = await value('settings:get', {});
    expect(read.proxyUrl).toBe('http://alice:•••@proxy.office:3128');
    expect(JSON.stringify(read)).not.toContain('s3cret');
  });

  it('saving the masked URL back keeps the stored password; the answer is masked too', async () => {
    const shown = (await value('settings:get', {})).proxyUrl;
    const answer = await value('settings:update', { proxyUrl: shown, notifications: false });
    expect(JSON.stringify(answer)).not.toContain('s3cret');
    expect(store.get().proxyUrl).toBe(saved);
    expect(store.get().notifications).toBe(false);
  });

  it('a new password, user or host is the user’s new proxy', async () => {
    await value('settings:update', { proxyUrl: 'http://alice:new-pw@proxy.office:3128' });
    expect(store.get().proxyUrl).toBe('http://alice:new-pw@proxy.office:3128');
    await value('settings:update', { proxyUrl: 'http://bob:•••@proxy.office:3128' });
    expect(store.get().proxyUrl).toBe('http://bob:•••@proxy.office:3128');
  });
});

describe('the masking rule', () => {
  it.each([
    ['http://alice:pw@proxy:3128', 'http://alice:•••@proxy:3128'],
    ['http://proxy:3128', 'http://proxy:3128'],
    ['http://alice@proxy:3128', 'http://alice@proxy:3128'],
    ['https://a:p@ss@proxy/x@y', 'https://a:•••@proxy/x@y'],
  ])('%s is shown as %s', (url, shown) => expect(maskProxyPassword(url)).toBe(shown));

  it('takes the URL-encoded mask and *** as the mask too', () => {
    const stored = { proxyUrl: saved } as Settings;
    for (const sent of [
      'http://alice:%E2%80%A2%E2%80%A2%E2%80%A2@proxy.office:3128',
      'http://alice:***@proxy.office:3128',
    ])
      expect(keepStoredProxyPassword({ proxyUrl: sent }, stored).proxyUrl).toBe(saved);
  });
});
