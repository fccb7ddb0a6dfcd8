// Enroll never leaves the server and the agent disagreeing: the folder is checked before the
// request, key and identity are saved in one atomic write, and a save that still fails names the
// monitor and the way back. Real reference server, real files, a disk that really fills.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enroll } from '../../../src-main/agent/identity/enrollment.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { createApiClient, type ApiClient } from '../../../src-main/agent/wire/api-client.ts';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/index.ts';
import { withOrg } from '../../reference-server/testing.ts';
import { tempDataDir } from '../../support/cli.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason } from '../../support/tmpfs.ts';

const place = { name: 'pc', region: 'r', country: 'DE', city: 'Berlin' };

describe('enroll and the key file', () => {
  let server: ReferenceServer;
  beforeAll(async () => (server = await startReferenceServer()));
  afterAll(() => server.close());

  it('saves key and identity together, leaving no temporary file', async () => {
    const { token } = withOrg(server);
    const dataDir = await tempDataDir();
    const vault = fileKeyVault(dataDir);
    const outcome = await enroll(
      { server: server.url, token, ...place },
      { dataDir, vault, client: (url) => createApiClient({ baseUrl: url, userAgent: 'test' }) },
    );
    if (!outcome.ok) throw new Error(outcome.message);
    expect(await vault.load()).toMatchObject({
      identity: { monitorId: outcome.monitorId, server: server.url, details: place },
    });
    expect(readdirSync(dataDir)).toEqual(['api-key']);
  });

  it.each([
    ['curly quotes around it', '\u201cuet_pasted\u201d'],
    ['a line break inside', 'uet_abc\ndef'],
    ['a character beyond Latin-1', 'uet_\u0430bc'],
  ])(
    'a token with %s is refused as the token, before any request (not "could not reach the server")',
    async (_, bad) => {
      const dataDir = await tempDataDir();
      const before = server.admin.monitors().length;
      const outcome = await enroll(
        { server: server.url, token: bad, ...place },
        {
          dataDir,
          vault: fileKeyVault(dataDir),
          client: (url) => createApiClient({ baseUrl: url, userAgent: 'test' }),
        },
      );
      expect(outcome).toMatchObject({ ok: false, kind: 'usage', field: 'token', problem: 'invalid' });
      expect(server.admin.monitors()).toHaveLength(before);
    },
  );

  it.skipIf(!canMountTmpfs)(
    `a key that cannot be saved after the answer: the monitor id and the way back (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`,
    async () => {
      const { token } = withOrg(server);
      const disk = mountSmallDisk(256);
      try {
        // The real client; the disk fills while the server answers (the folder was checked before).
        const client = (url: string): ApiClient => {
          const real = createApiClient({ baseUrl: url, userAgent: 'test' });
          return {
            ...real,
            enroll: async (...args: Parameters<ApiClient['enroll']>) => {
              const answer = await real.enroll(...args);
              disk.fill();
              return answer;
            },
          };
        };
        const outcome = await enroll(
          { server: server.url, token, ...place },
          { dataDir: disk.dir, vault: fileKeyVault(disk.dir), client },
        );
        expect(outcome).toMatchObject({ ok: false, kind: 'not-saved', cause: 'disk-full' });
        if (outcome.ok || outcome.monitorId === undefined) throw new Error('expected a monitor id');
        expect(server.admin.monitors().map((m) => m.id)).toContain(outcome.monitorId);
        expect(outcome.message).toContain(
          `the server enrolled monitor ${outcome.monitorId}, but its key could not be saved (the disk is full)`,
        );
        expect(outcome.message).toContain(
          `reset monitor ${outcome.monitorId}'s enrollment on the server's Monitors page, then reclaim monitor ${outcome.monitorId}`,
        );
        expect(readdirSync(disk.dir).filter((n) => n !== '.filler')).toEqual([]);
      } finally {
        disk.unmount();
      }
    },
  );
});
