// The synced check set, applied delta by delta together with the since cursor it belongs to.
import type { WireCheck } from '../wire/schemas.ts';
import { transaction, type Database } from './database.ts';
import { setMeta } from './meta.ts';

export interface StoredCheck {
  check: WireCheck;
  /** The server wiped its definition (empty url): the real one lives in the local file. */
  privateDefinition: boolean;
  /** Enabled, not deleted and still assigned: the agent should run it. */
  active: boolean;
}

export interface DeltaSummary {
  received: number;
  added: number;
  updated: number;
  stopped: number;
  /** Kept with an unusable definition: shown, not run. */
  invalid: number;
}

/** A check that arrives deleted or disabled (unassignment arrives as one of these) stops. */
export const isActive = (check: WireCheck): boolean => check.enabled && !check.deleted;

/** An unusable check is not "private" even when its url is missing: it is invalid. */
export const isPrivateDefinition = (check: WireCheck): boolean =>
  check.invalid_definition === undefined && check.url.trim() === '';

interface CheckRow {
  wire: string;
}

function toStored(row: CheckRow): StoredCheck {
  const check = JSON.parse(row.wire) as WireCheck;
  return { check, privateDefinition: isPrivateDefinition(check), active: isActive(check) };
}

/**
 * Applies one sync delta and moves the cursor to its server_time in the same transaction, so a
 * crash can never leave a cursor that skips changes the store has not applied. serverTime is
 * stored exactly as the server wrote it: it goes back as `since` byte for byte.
 */
export function applyDelta(db: Database, checks: readonly WireCheck[], serverTime: string): DeltaSummary {
  const summary: DeltaSummary = { received: checks.length, added: 0, updated: 0, stopped: 0, invalid: 0 };
  const find = db.prepare('SELECT enabled, deleted FROM checks WHERE guid = ?');
  const upsert = db.prepare(`
    INSERT INTO checks (guid, name, enabled, deleted, private_def, interval_sec, updated_at, wire)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (guid) DO UPDATE SET name = excluded.name, enabled = excluded.enabled,
      deleted = excluded.deleted, private_def = excluded.private_def,
      interval_sec = excluded.interval_sec, updated_at = excluded.updated_at, wire = excluded.wire`);
  transaction(db, () => {
    for (const check of checks) {
      const before = find.get(check.guid) as { enabled: number; deleted: number } | undefined;
      const wasActive = before !== undefined && before.enabled === 1 && before.deleted === 0;
      if (before === undefined) summary.added++;
      else summary.updated++;
      if (wasActive && !isActive(check)) summary.stopped++;
      if (check.invalid_definition !== undefined) summary.invalid++;
      upsert.run(
        check.guid,
        check.name,
        check.enabled ? 1 : 0,
        check.deleted ? 1 : 0,
        isPrivateDefinition(check) ? 1 : 0,
        check.interval_sec,
        check.updated_at,
        JSON.stringify(check),
      );
    }
    setMeta(db, 'sync_cursor', serverTime);
    setMeta(db, 'last_sync_at', new Date().toISOString());
  });
  return summary;
}

/** Every check the server still shows to this monitor (deleted ones left out), by name. */
export function listChecks(db: Database): StoredCheck[] {
  const rows = db.prepare('SELECT wire FROM checks WHERE deleted = 0 ORDER BY name COLLATE NOCASE, guid').all();
  return (rows as unknown as CheckRow[]).map(toStored);
}

export function getCheck(db: Database, guid: string): StoredCheck | undefined {
  const row = db.prepare('SELECT wire FROM checks WHERE guid = ?').get(guid) as CheckRow | undefined;
  return row === undefined ? undefined : toStored(row);
}

/** Forgets the whole check set, as when this agent becomes another monitor. */
export function clearChecks(db: Database): void {
  db.exec('DELETE FROM checks');
}
