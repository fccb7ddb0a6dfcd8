// Issue 12 §4: one odd check must not wedge the sync. A scripted loopback server sends the odd
// shapes the real server (a separate codebase) was seen to send; the store is a real SQLite file.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { runnableChecks } from '../../../src-main/agent/checks/runnable-checks.ts';
import { getCheck, listChecks } from '../../../src-main/agent/store/checks.ts';
import { openDatabase, type Database } from '../../../src-main/agent/store/database.ts';
import { getMeta } from '../../../src-main/agent/store/meta.ts';
import { syncOnce } from '../../../src-main/agent/checks/sync.ts';
import { createApiClient, type ApiClient } from '../../../src-main/agent/wire/api-client.ts';
import { tempDataDir } from '../../support/cli.ts';
import { json, startScriptedServer, text, type ScriptedServer } from '../../support/scripted-server.ts';
import { wireCheck } from '../../support/wire-fixtures.ts';

describe('sync of odd deltas against a scripted loopback server', () => {
  let server: ScriptedServer;
  let db: Database;
  let client: ApiClient;
  beforeAll(async () => (server = await startScriptedServer()));
  afterAll(() => server.close());
  beforeEach(async () => {
    db = openDatabase(join(await tempDataDir(), 'agent.db'));
    client = createApiClient({ baseUrl: server.url, userAgent: 'test' });
  });
  afterEach(async () => {
    db.close();
    await client.close();
  });
  const sync = () => syncOnce({ db, client, apiKey: 'k', log: silentLogger });

  it('applies the rest of a delta around one odd check and advances the cursor byte for byte', async () => {
    server.handle(
      json(200, {
        checks: [wireCheck({ guid: 'gone' }), wireCheck({ guid: 'keep' })],
        server_time: '2026-11-21T10:00:00.000001Z',
      }),
    );
    expect((await sync()).ok).toBe(true);

    // Nanoseconds, lowercase separators: stored and echoed exactly, never reformatted.
    const serverTime = '2026-11-21t10:00:01.123456789z';
    server.handle(
      json(200, {
        checks: [
          {
            ...wireCheck({ guid: 'odd' }),
            down_interval_sec: 90.5,
            monitor_count: 3,
            monitor_rank: 1,
            updated_at: '2026-11-21T10:00:00.5+01:00',
            extra: { x: 1 },
          },
          { ...wireCheck({ guid: 'gone' }), deleted: true },
          { ...wireCheck({ guid: 'broken' }), timeout_sec: 'ten', headers: { Authorization: 'Bearer s3cret' } },
          { guid: '', deleted: true, name: 'withdrawn shared check' },
          { ...wireCheck({ guid: 'scale' }), monitor_count: -1, monitor_rank: 1.5 },
        ],
        server_time: serverTime,
      }),
    );
    const outcome = await sync();
    expect(outcome).toMatchObject({
      ok: true,
      cursor: serverTime,
      summary: { received: 4, stopped: 1, invalid: 1, skipped: 0 },
    });
    expect(getMeta(db, 'sync_cursor')).toBe(serverTime);
    expect(getCheck(db, 'odd')).toMatchObject({
      active: true,
      check: { down_interval_sec: 90.5, monitor_count: 3, monitor_rank: 1 },
    });
    expect(getCheck(db, 'gone')?.active).toBe(false);
    // Odd scale-out values are read as absent, not as a reason to refuse the check.
    expect(getCheck(db, 'scale')?.check).not.toHaveProperty('monitor_count');

    const runnable = runnableChecks(listChecks(db), new Map());
    expect([...runnable.runnable.keys()].sort()).toEqual(['keep', 'odd', 'scale']);
    const broken = runnable.unschedulable.find((u) => u.guid === 'broken');
    expect(broken?.reason).toBe('invalid definition: timeout_sec');
    expect(JSON.stringify(runnable.unschedulable)).not.toContain('s3cret');

    server.handle(json(200, { checks: [], server_time: serverTime }));
    await sync();
    expect(server.seen.at(-1)?.url).toBe(`/api/checks?since=${encodeURIComponent(serverTime)}`);
  });

  it.each([
    { name: 'not JSON', handler: text(200, '<html>login</html>'), says: 'not JSON' },
    {
      name: 'no checks array',
      handler: json(200, { checks: { a: 1 }, server_time: '2026-11-21T10:00:00Z' }),
      says: 'checks',
    },
    { name: 'no server_time', handler: json(200, { checks: [] }), says: 'server_time' },
    {
      name: 'a server_time that is not RFC 3339',
      handler: json(200, { checks: [], server_time: 'yesterday' }),
      says: 'server_time',
    },
  ])('refuses a broken envelope ($name) and keeps the cursor', async ({ handler, says }) => {
    server.handle(json(200, { checks: [wireCheck({ guid: 'a' })], server_time: '2026-11-21T10:00:00Z' }));
    await sync();
    server.handle(handler);
    const outcome = await sync();
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toContain(says);
    expect(getMeta(db, 'sync_cursor')).toBe('2026-11-21T10:00:00Z');
  });
});
