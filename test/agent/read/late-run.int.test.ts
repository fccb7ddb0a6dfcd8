// A run that ends after its check has left the check set (deleted on the server, or unassigned
// from this monitor) still goes to the outbox, as every finished run does (the server drops
// results of checks it no longer assigns: wire-api "accepted"), but it brings back none of the
// check's local state: no history rows, no rollups, no last run, no ring of figures, nothing a
// later start would load again. Before, the commit of such a run put all of it back for good
// (issue 26: memory per check; the check was forgotten once, when it left, and never again).
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { storeFile } from '../../../src-main/agent/base/data-dir.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

/** Rows the store holds for a check, in every table that keeps something per check. */
function rowsOf(dataDir: string, guid: string): Record<string, number> {
  const db = openDatabase(storeFile(dataDir));
  try {
    const count = (table: string): number =>
      (
        db
          .prepare(`SELECT COUNT(*) AS n FROM ${table} t JOIN check_keys k ON k.id = t.check_id WHERE k.guid = ?`)
          .get(guid) as { n: number }
      ).n;
    return {
      history: count('history'),
      history_log: count('history_log'),
      rollups_minute: count('rollups_minute'),
      rollups_hour: count('rollups_hour'),
    };
  } finally {
    db.close();
  }
}

describe('a run that ends after its check left', () => {
  let h: Harness;
  let target: HttpTarget;
  afterEach(async () => {
    await h.close();
    await target.close();
  });

  it.each([
    { how: 'deleted', act: (h: Harness, guid: string) => h.server.admin.deleteCheck(guid) },
    { how: 'unassigned', act: (h: Harness, guid: string) => h.server.admin.unassign(guid, h.monitorId) },
  ])('is uploaded, and brings back none of the $how check’s state', async ({ act }) => {
    const held: ServerResponse[] = [];
    target = await startHttpTarget({ '/slow': (_req, res) => void held.push(res) });
    h = await enrolledAgent();
    const check = h.assignCheck({
      name: 'Slow',
      url: `${target.url}/slow`,
      interval_sec: 3600,
    });
    await h.agent.syncNow();
    await eventually(() => held.length === 1, 10_000, 'the run in flight');

    act(h, check.guid);
    // The sync loop may apply the change first (the harness syncs every 100 ms); either way, once a
    // round started after the change has ended, the check is no longer run.
    const sync = await h.agent.syncNow();
    expect(sync.ok).toBe(true);
    expect(h.agent.runnable().runnable.has(check.guid)).toBe(false);

    // The run ends now, a failure (a "down" the check would have been told of).
    held[0]?.writeHead(503).end('gone');
    await eventually(
      () => h.server.requests({ endpoint: 'results' }).some((r) => r.body.includes(check.guid)),
      10_000,
      'the late run uploaded',
    );
    const window = h.agent.insight.window(check.guid, '1h');
    expect(window.lastRun).toBeUndefined();
    expect(window.uptime['1h'].runs).toBe(0);
    expect(h.agent.insight.events({ guid: check.guid, limit: 10 })).toEqual([]);

    // A stop writes the rollups and moves the history's journal: nothing of the check is left.
    await h.agent.stop();
    expect(rowsOf(h.dataDir, check.guid)).toEqual({ history: 0, history_log: 0, rollups_minute: 0, rollups_hour: 0 });
  });
});
