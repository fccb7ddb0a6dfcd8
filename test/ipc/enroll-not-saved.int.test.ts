// A key the server issued and this computer could not keep reaches the window as exactly that:
// kind not-saved, the monitor id to reclaim and the local cause, through the IPC handlers
// unchanged (it used to arrive as "bad-request", read as "The server refused the request").
// Real reference server, a real agent, a key file's folder on a small disk made read-only after
// the server answered.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAgent } from '../../src-main/agent/agent.ts';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { fileKeyVault, type KeyVault } from '../../src-main/agent/identity/key-vault.ts';
import { fileSettingsStore } from '../../src-main/cli/dashboard/index.ts';
import { webHostActions } from '../../src-main/cli/dashboard/web-host.ts';
import { createHandlers } from '../../src-main/ipc/handlers.ts';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { tempDataDir } from '../support/cli.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason } from '../support/tmpfs.ts';

let server: ReferenceServer;
beforeAll(async () => (server = await startReferenceServer()));
afterAll(() => server.close());

it.skipIf(!canMountTmpfs)(
  `enroll "not saved" crosses IPC as not-saved with the monitor id (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`,
  async () => {
    const { token } = withOrg(server);
    const disk = mountSmallDisk(4096);
    const real = fileKeyVault(disk.dir);
    // The vault is asked to save only after the server answered: that is when the folder goes.
    const vault: KeyVault = {
      ...real,
      save: (credentials) => {
        disk.readOnly(true);
        return real.save(credentials);
      },
    };
    // The key file's folder on the small disk; the store (always open) in a folder of its own.
    const dataDir = await tempDataDir();
    const agent = createAgent({ dataDir, vault });
    try {
      await agent.start();
      const settings = fileSettingsStore(dataDir);
      const invoke = createHandlers({
        agent,
        settings,
        host: webHostActions(dataDir, silentLogger),
        log: silentLogger,
      });
      const answer = await invoke('agent:enroll', {
        server: server.url,
        token,
        name: 'pc',
        region: 'r',
        country: 'DE',
        city: 'Berlin',
      });
      expect(answer).toMatchObject({ ok: true, value: { ok: false, kind: 'not-saved', cause: 'not-writable' } });
      const value = answer.ok ? (answer.value as { monitorId?: string }) : {};
      expect(server.admin.monitors().map((m) => m.id)).toEqual([value.monitorId]);
    } finally {
      disk.readOnly(false);
      await agent.stop();
      disk.unmount();
    }
  },
);
