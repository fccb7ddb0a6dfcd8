// Assignments of checks to monitors and the sync delta built from them.
//
// A monitor sees a check's change time as the later of the check's own updated_at and the time
// its assignment last changed: a check assigned today must reach the agent even if its
// definition is old. An unassigned check keeps its unassignment time only, so it appears in
// exactly one delta after the unassignment (as disabled + deleted) and never again, whatever
// later happens to the check.
import type { DatabaseSync } from 'node:sqlite';
import { toCheckRecord, toWireCheck } from './checks.ts';
import { flag, int, type Row } from './db.ts';
import type { Micros, Stamper } from './timestamps.ts';
import type { CheckRecord, WireCheck } from './types.ts';

export interface AssignmentStore {
  /** Idempotent: assigning an assigned check changes nothing (no stamp, no delta). */
  assign(checkGuid: string, monitorId: string): void;
  unassign(checkGuid: string, monitorId: string): void;
  isAssigned(checkGuid: string, monitorId: string): boolean;
  /** Checks currently assigned to the monitor, deleted ones included. */
  assignedChecks(monitorId: string): CheckRecord[];
  /** Everything the monitor must learn about since `sinceUs`, oldest change first. */
  delta(monitorId: string, sinceUs: Micros): WireCheck[];
}

export function createAssignmentStore(db: DatabaseSync, stamper: Stamper): AssignmentStore {
  const find = db.prepare('SELECT assigned FROM assignments WHERE monitor_id = ? AND check_guid = ?');
  const upsert = db.prepare(
    `INSERT INTO assignments (monitor_id, check_guid, assigned, changed_us) VALUES (?, ?, ?, ?)
     ON CONFLICT (monitor_id, check_guid) DO UPDATE SET assigned = excluded.assigned,
       changed_us = excluded.changed_us`,
  );
  const assigned = db.prepare(
    `SELECT c.* FROM assignments a JOIN checks c ON c.guid = a.check_guid
     WHERE a.monitor_id = ? AND a.assigned = 1 ORDER BY c.guid`,
  );
  const delta = db.prepare(
    `SELECT c.*, a.assigned,
       CASE WHEN a.assigned = 1 THEN max(c.updated_us, a.changed_us) ELSE a.changed_us END AS seen_us
     FROM assignments a JOIN checks c ON c.guid = a.check_guid
     WHERE a.monitor_id = ? AND seen_us > ? ORDER BY seen_us, c.guid`,
  );

  const isAssigned = (checkGuid: string, monitorId: string): boolean => {
    const row = find.get(monitorId, checkGuid);
    return row !== undefined && flag(row, 'assigned');
  };

  return {
    assign(checkGuid, monitorId) {
      if (!isAssigned(checkGuid, monitorId)) upsert.run(monitorId, checkGuid, 1, stamper.next());
    },
    unassign(checkGuid, monitorId) {
      if (!isAssigned(checkGuid, monitorId)) {
        throw new Error(`unassign: check ${checkGuid} is not assigned to monitor ${monitorId}`);
      }
      upsert.run(monitorId, checkGuid, 0, stamper.next());
    },
    isAssigned,
    assignedChecks: (monitorId) => assigned.all(monitorId).map(toCheckRecord),
    delta: (monitorId, sinceUs) =>
      delta
        .all(monitorId, sinceUs)
        .map((row: Row) => toWireCheck(toCheckRecord(row), int(row, 'seen_us'), !flag(row, 'assigned'))),
  };
}
