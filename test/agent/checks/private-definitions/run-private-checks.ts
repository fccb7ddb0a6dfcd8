// Both leak tests run the same way: the definitions go to a local file, the server holds each
// check with its definition wiped, and the agent runs every one until the server has a result
// of each. What the tests then look for in the server's requests is theirs.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckDefinition } from '../../../../src-main/agent/wire/schemas.ts';
import { eventually, type Harness } from '../../../support/agent-harness.ts';

export async function runPrivateChecks(
  h: Harness,
  checks: readonly (Partial<CheckDefinition> & { guid: string })[],
  resultDetailMaxChars: number,
): Promise<void> {
  const file = join(h.dataDir, 'private.json');
  await writeFile(file, JSON.stringify({ checks }));
  for (const c of checks) {
    const created = h.assignCheck({
      guid: c.guid,
      name: c.guid,
      url: 'http://placeholder.invalid/',
      interval_sec: 1,
      result_detail_max_chars: resultDetailMaxChars,
    });
    h.server.admin.makePrivateDefinition(created.guid);
  }
  await h.agent.setPrivateChecksFile(file);
  await h.agent.syncNow();
  await eventually(
    () => {
      const guids = new Set(h.server.results(h.monitorId).map((r) => r.checkGuid));
      return checks.every((c) => guids.has(c.guid));
    },
    15_000,
    'results of every private check',
  );
}
