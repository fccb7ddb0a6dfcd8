// The desktop key vault through a real enrollment against the reference server: the key is never
// written in plaintext (the vault's own rules are in key-vault.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../src-main/agent/agent.ts';
import { createLogger, type Logger } from '../../src-main/agent/base/log.ts';
import { createDesktopKeyVault } from '../../src-main/electron/key-vault.ts';
import { createShellStore } from '../../src-main/electron/settings.ts';
import { startReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { FakeSafeStorage } from './fake-electron.ts';
import { filesContaining, memoryBacking, tempDir } from './support.ts';

let dir: { path: string; remove(): Promise<void> };
let lines: string[];
let log: Logger;
beforeEach(async () => {
  dir = await tempDir('vault-');
  lines = [];
  log = createLogger({ write: (line: string) => lines.push(line) }, 'debug');
});
afterEach(() => dir.remove());

describe('with OS encryption available', () => {
  it('never writes the key in plaintext through a real enrollment', async () => {
    const server = await startReferenceServer();
    const { token } = withOrg(server);
    const backing = memoryBacking();
    const store = createShellStore(backing);
    const { vault } = await createDesktopKeyVault({
      safeStorage: new FakeSafeStorage('kwallet6'),
      slot: store.apiKeySlot,
      platform: 'linux',
      dataDir: dir.path,
      log,
    });
    const agent = createAgent({ dataDir: dir.path, vault, log });
    try {
      await agent.start();
      const outcome = await agent.enroll({
        server: server.url,
        token,
        name: 'pc',
        region: 'r',
        country: 'DE',
        city: 'Berlin',
      });
      expect(outcome.ok).toBe(true);
      const apiKey = (await vault.load())?.apiKey;
      expect(apiKey).toMatch(/.{16,}/);
      if (apiKey === undefined) return;
      await agent.stop();
      expect(await filesContaining(dir.path, apiKey)).toEqual([]);
      expect(JSON.stringify(backing.data)).not.toContain(apiKey);
      expect(lines.join('')).not.toContain(apiKey);
    } finally {
      await agent.stop();
      await server.close();
    }
  });
});
