// Stored results. Idempotent on (monitor, check, ran_at instant): a retried batch stores nothing
// twice. Detail fields are capped here, whatever the agent claims to have capped.
import type { DatabaseSync } from 'node:sqlite';
import type { AssignmentStore } from './deltas.ts';
import type { CheckStore } from './checks.ts';
import { flag, inTransaction, int, optionalText, text, type Row } from './db.ts';
import type { Micros } from './timestamps.ts';
import type { CheckRecord, StoredResult } from './types.ts';

/** One validated result of a ResultsRequest (see validate.ts). */
export interface IncomingResult {
  check_guid: string;
  ran_at: string;
  ranAtUs: Micros;
  success: boolean;
  http_status: number;
  latency_ms: number;
  error?: string;
  response_sample?: string;
}

export interface IngestOutcome {
  /** Results for checks assigned to the caller, new or already stored (see routes/results.ts). */
  accepted: number;
  /** Rows actually inserted by this call. */
  inserted: number;
}

export interface ResultStore {
  ingest(monitorId: string, results: IncomingResult[]): IngestOutcome;
  list(monitorId?: string): StoredResult[];
}

/** The first `max` code points (not UTF-16 units: a cap must never split a surrogate pair). */
export function capCodePoints(value: string, max: number): string {
  if (value.length <= max) return value;
  let out = '';
  let n = 0;
  for (const char of value) {
    if (n++ === max) break;
    out += char;
  }
  return out;
}

function toResult(row: Row): StoredResult {
  const result: StoredResult = {
    seq: int(row, 'seq'),
    monitorId: text(row, 'monitor_id'),
    checkGuid: text(row, 'check_guid'),
    orgId: optionalText(row, 'org_id') ?? null,
    ranAt: text(row, 'ran_at'),
    success: flag(row, 'success'),
    httpStatus: int(row, 'http_status'),
    latencyMs: int(row, 'latency_ms'),
    receivedAt: text(row, 'received_at'),
  };
  const error = optionalText(row, 'error');
  const sample = optionalText(row, 'response_sample');
  if (error !== undefined) result.error = error;
  if (sample !== undefined) result.responseSample = sample;
  return result;
}

export function createResultStore(
  db: DatabaseSync,
  checks: CheckStore,
  assignments: AssignmentStore,
  now: () => Date,
): ResultStore {
  const insert = db.prepare(
    `INSERT INTO results (monitor_id, check_guid, org_id, ran_at, ran_at_us, success, http_status,
       latency_ms, error, response_sample, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (monitor_id, check_guid, ran_at_us) DO NOTHING`,
  );
  const all = db.prepare('SELECT * FROM results ORDER BY seq');
  const byMonitor = db.prepare('SELECT * FROM results WHERE monitor_id = ? ORDER BY seq');

  return {
    ingest(monitorId, results) {
      const receivedAt = now().toISOString();
      const assigned = new Map<string, CheckRecord | undefined>();
      const lookup = (guid: string): CheckRecord | undefined => {
        if (!assigned.has(guid)) {
          assigned.set(guid, assignments.isAssigned(guid, monitorId) ? checks.get(guid) : undefined);
        }
        return assigned.get(guid);
      };
      return inTransaction(db, () => {
        let accepted = 0;
        let inserted = 0;
        for (const r of results) {
          const check = lookup(r.check_guid);
          if (!check) continue;
          accepted++;
          const max = check.definition.result_detail_max_chars;
          const cap = (value: string | undefined) => (value === undefined ? null : capCodePoints(value, max));
          inserted += Number(
            insert.run(
              monitorId,
              r.check_guid,
              check.orgId,
              r.ran_at,
              r.ranAtUs,
              r.success ? 1 : 0,
              r.http_status,
              r.latency_ms,
              cap(r.error),
              cap(r.response_sample),
              receivedAt,
            ).changes,
          );
        }
        return { accepted, inserted };
      });
    },
    list: (monitorId) => (monitorId === undefined ? all.all() : byMonitor.all(monitorId)).map(toResult),
  };
}
