// `status` reads the store of an agent that may be running, and so committing between two of its
// reads. A starting agent migrates its store one version per commit: a report that read the schema
// version before a commit and a table after it asked the history keyed by check for a guid column
// ("cannot join using column check_guid", a CI run of `status --json` polled while `run` started).
// Real files, two real connections; the writer's commit is made at the moment a second process
// made it, between the report's reads.
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import {
  currentSchemaVersion,
  migrate,
  openDatabaseReadOnly,
  schemaVersion,
  type Database,
} from '../../../src-main/agent/store/database.ts';
import { statusReport } from '../../../src-main/agent/read/status-report.ts';
import { tempDataDir } from '../../support/cli.ts';
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');

const open: { close(): void }[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** The agent's connection, its store migrated up to `version`, as `run` leaves it between two commits. */
function agentStoreAt(file: string, version: number): { migrateOnce: () => void } {
  const writer = new DatabaseSync(file);
  open.push(writer);
  writer.exec('PRAGMA journal_mode = WAL');
  migrate(writer, version);
  return { migrateOnce: () => migrate(writer, schemaVersion(writer) + 1) };
}

/** The reader, with the agent's next commit landing just before the report first reads `table`. */
function commitsBeforeReading(reader: Database, table: RegExp, commit: () => void): { committed: () => boolean } {
  let committed = false;
  const prepare = reader.prepare.bind(reader);
  reader.prepare = (sql: string) => {
    if (!committed && table.test(sql)) {
      commit();
      committed = true;
    }
    return prepare(sql);
  };
  return { committed: () => committed };
}

it("reads the store at one moment while the agent's last migration commits between two of its reads", async () => {
  const file = join(await tempDataDir(), 'agent.db');
  const agent = agentStoreAt(file, currentSchemaVersion - 1);
  const reader = openDatabaseReadOnly(file);
  open.push(reader);
  const interleaved = commitsBeforeReading(reader, /\bFROM history\b/, agent.migrateOnce);

  const report = statusReport(reader, undefined, false);
  expect(interleaved.committed()).toBe(true);
  expect(report.checks).toEqual([]);
  expect(report.unsent_results).toBe(0);

  // The next report sees the migrated store whole.
  const after = statusReport(reader, undefined, false);
  expect(after.checks).toEqual([]);
});
