// `uptime-agent status [--json]`: what the store says, also while `run` is going.
import { existsSync } from 'node:fs';
import { resolveDataDir, storeFile } from '../agent/data-dir.ts';
import { fileKeyVault } from '../agent/key-vault.ts';
import { openDatabase } from '../agent/store/database.ts';
import { statusReport, type StatusReport } from '../agent/status-report.ts';
import { countChecks } from '../agent/check-health.ts';
import { parseFlags } from './args.ts';
import { exitCodes } from './exit-codes.ts';
import type { CliIo } from './io.ts';

export async function statusCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseFlags(argv, { json: { type: 'boolean' } });
  if (!parsed.ok) {
    io.stderr(`status: ${parsed.message}. Run "uptime-agent --help" for usage.`);
    return exitCodes.usage;
  }
  const dataDir = resolveDataDir(typeof parsed.value['data-dir'] === 'string' ? parsed.value['data-dir'] : undefined, io.env);
  const keyPresent = existsSync(storeFile(dataDir)) && (await fileKeyVault(dataDir).load()) !== undefined;
  const db = openDatabase(storeFile(dataDir));
  let report: StatusReport;
  try {
    report = statusReport(db, keyPresent);
  } finally {
    db.close();
  }
  if (parsed.value.json === true) io.stdout(JSON.stringify(report, null, 2));
  else for (const line of describe(report, dataDir)) io.stdout(line);
  return exitCodes.ok;
}

function describe(report: StatusReport, dataDir: string): string[] {
  if (!report.enrolled) {
    return [`not enrolled (data folder ${dataDir})`, 'enroll with: uptime-agent enroll --server URL --name N --region R --country C --city C'];
  }
  const counts = countChecks(report.checks.map((c) => ({ enabled: c.enabled, runnable: c.runnable, lastResult: c.last_result })));
  return [
    `monitor ${report.monitor_id ?? '?'} on ${report.server ?? '?'}`,
    `last sync: ${report.last_sync_at ?? 'never'}`,
    `checks: ${counts.total} (${counts.up} up, ${counts.down} down, ${counts.pending} pending, ${counts.skipped} skipped, ${counts.notRun} not run)`,
    `unsent results: ${report.unsent_results}`,
    ...(report.overloaded ? [`overloaded: the agent cannot keep up and skips runs (${report.skipped_overlap} while the check was still running, ${report.skipped_backlog} waiting for a free slot, since it started); lengthen check intervals or run fewer checks on this machine`] : []),
    ...privateLines(report),
    ...report.checks.map((c) => {
      const last = c.last_result === undefined ? 'no result yet' : c.last_result.skipped ? 'skipped (offline)' : c.last_result.success ? 'up' : `down: ${c.last_result.error}`;
      const flags = [c.enabled ? '' : 'disabled', c.private_definition ? 'private' : '', c.runnable ? '' : 'not run'].filter(Boolean);
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
