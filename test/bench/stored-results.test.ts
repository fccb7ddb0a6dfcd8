// How the bench's server answers "how many results do you hold" (bench/agent/stored-results.ts):
// the soak asks every line, so the answer must be found, not counted row by row, and must still
// be the number of rows the reference server's own ingest stored (a retried batch adds none).
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storedResults, storedResultsSql } from '../../bench/agent/stored-results.ts';
import { createAdmin } from '../reference-server/admin.ts';
import { openState, type ServerState } from '../reference-server/state.ts';
import type { IncomingResult } from '../reference-server/results-store.ts';
import { parseRfc3339 } from '../reference-server/timestamps.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const opened: Array<{ close(): void }> = [];
let folder: TempDir | undefined;
afterEach(async () => {
  for (const db of opened.splice(0)) db.close();
  await folder?.remove();
});

async function serverWithOneCheck(): Promise<{ state: ServerState; monitorId: string; path: string }> {
  folder = await tempDir();
  const path = join(folder.path, 'server.db');
  const state = openState(path, () => new Date('2026-12-05T03:00:00Z'));
  opened.push(state.db);
  const admin = createAdmin(state);
  const org = admin.createOrganization('Bench');
  const { monitorId } = admin.enrollMonitor(org.id);
  admin.createCheck({ guid: 'bench-0', name: 'bench 0', url: 'http://127.0.0.1:9/c/0', orgId: org.id });
  admin.assign('bench-0', monitorId);
  return { state, monitorId, path };
}

/** A result as the server's route hands it to ingest: its time read by the server's own parser. */
function result(second: number): IncomingResult {
  const ranAt = new Date(Date.UTC(2026, 11, 5, 3, 0, second)).toISOString();
  return {
    check_guid: 'bench-0',
    ran_at: ranAt,
    ranAtUs: parseRfc3339(ranAt) ?? 0,
    success: true,
    http_status: 200,
    latency_ms: 1,
  };
}

describe('the bench server stored-results answer', () => {
  it('is the number of rows ingest stored, a retried batch and a result of no assigned check adding none', async () => {
    const { state, monitorId, path } = await serverWithOneCheck();
    const reader = new DatabaseSync(path, { readOnly: true });
    opened.push(reader);
    const stored = storedResults(reader);
    expect(stored()).toBe(0);

    state.results.ingest(monitorId, [result(0), result(1), result(2)]);
    state.results.ingest(monitorId, [result(1), result(2), result(3)]);
    state.results.ingest(monitorId, [{ ...result(4), check_guid: 'not-assigned' }]);

    expect(state.results.list()).toHaveLength(4);
    expect(stored()).toBe(4);
  });

  it('is found at the end of the table b-tree, not counted row by row', async () => {
    const { state } = await serverWithOneCheck();
    const plan = state.db.prepare(`EXPLAIN QUERY PLAN ${storedResultsSql}`).all() as Array<{ detail: string }>;
    const details = plan.map((row) => row.detail);
    expect(details.some((detail) => /\bSCAN\b/.test(detail))).toBe(false);
    expect(details.some((detail) => /^SEARCH results\b/.test(detail))).toBe(true);
  });
});
