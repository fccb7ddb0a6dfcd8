// `uptime-agent status [--json]`: what the store says, also while `run` is going. It only reads:
// the store is opened read-only, nothing is migrated or created (not even the data folder).
import { resolveDataDir, storeFile } from '../agent/base/data-dir.ts';
import { legacyIdentity } from '../agent/identity/enrollment.ts';
import { lockHolder, processAlive } from '../agent/identity/instance-lock.ts';
import { fileKeyVault, type Credentials } from '../agent/identity/key-vault.ts';
import { printable, printableJsonLine } from '../agent/base/printable.ts';
import { readLiveState } from '../agent/live/live-state-file.ts';
import { openDatabase, openDatabaseReadOnly, schemaVersion, type Database } from '../agent/store/database.ts';
import { statusReport, type StatusReport } from '../agent/read/status-report.ts';
import { countChecks } from '../agent/read/check-health.ts';
import { countsText } from '../ipc/agent-summary.ts';
import { parseFlags } from './args.ts';
import { readSettingsRead } from './dashboard/settings-file.ts';
import { exitCodes } from './exit-codes.ts';
import { localStateMessage } from './local-state.ts';
import type { CliIo } from './io.ts';
const { existsSync, statSync } = process.getBuiltinModule('node:fs');

export async function statusCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseFlags(argv, { json: { type: 'boolean' } });
  if (!parsed.ok) {
    io.stderr(`status: ${parsed.message}. Run "uptime-agent --help" for usage.`);
    return exitCodes.usage;
  }
  const dataDir = resolveDataDir(
    typeof parsed.value['data-dir'] === 'string' ? parsed.value['data-dir'] : undefined,
    io.env,
  );
  let report: StatusReport;
  try {
    report = await readStatus(dataDir);
  } catch (error) {
    io.stderr(`status: ${localStateMessage(error, dataDir)}`);
    return exitCodes.localState;
  }
  // The policy checks run under is a setting (settings.json), not a fact of the store.
  // A damaged settings file falls back closed (strict): status says so rather than hiding it.
  const settings = readSettingsRead(dataDir);
  const withPolicy = {
    ...report,
    egress_policy: settings.settings.egressPolicy,
    ...(settings.problemText === undefined ? {} : { settings_problem: settings.problemText }),
  };
  if (parsed.value.json === true) io.stdout(printableJsonLine(JSON.stringify(withPolicy, null, 2)));
  else
    for (const line of [
      ...describe(report, dataDir),
      ...(settings.problemText === undefined ? [] : [`problem: ${settings.problemText}`]),
    ])
      io.stdout(printable(line));
  return exitCodes.ok;
}

async function readStatus(dataDir: string): Promise<StatusReport> {
  let credentials: Credentials | undefined;
  if (existsSync(dataDir)) credentials = await fileKeyVault(dataDir, () => undefined, { readOnly: true }).load();
  const file = storeFile(dataDir);
  const db = openStoreOrEmpty(file);
  try {
    const identity = credentials?.identity ?? legacyIdentity(db);
    // Fresh only while its writer runs (the folder's lock holder, when one holds it) and wrote
    // it within a few periods (live-state-file.ts).
    const holder = lockHolder(dataDir);
    const live = readLiveState(
      dataDir,
      (pid) => (holder === undefined ? processAlive(pid) : holder === pid),
      Date.now(),
    );
    return statusReport(db, identity, credentials !== undefined, live);
  } finally {
    db.close();
  }
}

/**
 * No store yet — or one a starting `run` has only just created (an empty file, or no schema
 * before its first migration commits) — reads as an empty store, from memory: `status` right
 * after `run` starts must not fail.
 */
function openStoreOrEmpty(file: string): Database {
  if (existsSync(file) && statSync(file).size > 0) {
    const db = openDatabaseReadOnly(file);
    if (schemaVersion(db) > 0) return db;
    db.close();
  }
  return openDatabase(':memory:');
}

function describe(report: StatusReport, dataDir: string): string[] {
  if (!report.enrolled) {
    return [
      `not enrolled (data folder ${dataDir})`,
      'enroll with: uptime-agent enroll --server URL --name N --region R --country C --city C',
    ];
  }
  const counts = countChecks(
    report.checks.map((c) => ({ enabled: c.enabled, runnable: c.runnable, lastResult: c.last_result })),
  );
  return [
    `monitor ${report.monitor_id ?? '?'} on ${report.server ?? '?'}`,
    ...(report.connection === null
      ? []
      : [
          `server: ${report.connection.state}${report.connection.since === null ? '' : ` since ${report.connection.since}`}`,
        ]),
    ...(report.store_problem === null ? [] : [`problem: ${report.store_problem}`]),
    `last sync: ${report.last_sync_at ?? 'never'}`,
    `checks: ${counts.total} (${countsText(counts)})`,
    `unsent results: ${report.unsent_results}`,
    ...report.aside_results.map(
      (a) => `unsent results of monitor ${a.monitor_id} (kept aside; reclaim that monitor to send them): ${a.count}`,
    ),
    ...(report.dropped_results === 0 ? [] : [`results dropped by the outbox bound: ${report.dropped_results}`]),
    ...(report.overloaded
      ? [
          `overloaded: the agent cannot keep up and skips runs (${report.skipped_overlap} while the check was still running, ${report.skipped_backlog} waiting for a free slot, since it started); lengthen check intervals or run fewer checks on this machine`,
        ]
      : []),
    ...privateLines(report),
    ...report.checks.map((c) => {
      const last =
        c.last_result === undefined
          ? 'no result yet'
          : c.last_result.skipped
            ? 'skipped (offline)'
            : c.last_result.success
              ? 'up'
              : `down: ${c.last_result.error}`;
      const flags = [
        c.enabled ? '' : 'disabled',
        c.private_definition ? 'private' : '',
        c.runnable ? '' : 'not run',
      ].filter(Boolean);
      return `  ${c.name} [${c.guid}]${flags.length > 0 ? ` (${flags.join(', ')})` : ''}: ${last}`;
    }),
  ];
}

function privateLines(report: StatusReport): string[] {
  const p = report.private_definitions;
  if (p.file === undefined && p.missing.length === 0) return [];
  return [
    `private definitions: ${p.file ?? 'no file (start run with --private-checks FILE)'}; ${p.defined.length} defined, ${p.missing.length} missing, ${p.unknown.length} unknown`,
    ...(p.fileError === undefined ? [] : [`  problem: ${p.fileError}`]),
    ...p.problems.map((problem) => `  ${problem.severity}: ${problem.message}`),
  ];
}
