// One sync delta, check by check: one odd check must never wedge the sync (issue 12 §4). A
// check whose own fields are unusable is kept as an invalid definition (shown, not run), the
// rest of the delta applies and the cursor advances.
import { checkSchema, type WireCheck } from './schemas.ts';

export interface ParsedDelta {
  /** Checks to store, the unusable ones flagged with invalid_definition. */
  checks: WireCheck[];
  /** Rows that could not be stored at all (no guid); a deleted row without one is not counted. */
  skipped: number;
}

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseDelta(rows: readonly unknown[]): ParsedDelta {
  const delta: ParsedDelta = { checks: [], skipped: 0 };
  for (const row of rows) {
    const check = parseCheck(row);
    if (check === 'no-op') continue;
    if (check === undefined) delta.skipped++;
    else delta.checks.push(check);
  }
  return delta;
}

/** A check, the same check flagged invalid, 'no-op' (a withdrawn row), or undefined (no guid). */
export function parseCheck(row: unknown): WireCheck | 'no-op' | undefined {
  if (!isRow(row)) return undefined;
  const guid = typeof row.guid === 'string' ? row.guid : '';
  // An older server sends withdrawn shared checks as a deleted row with an empty guid.
  if (guid === '') return row.deleted === true ? 'no-op' : undefined;
  const parsed = checkSchema.safeParse(row);
  if (parsed.success) return parsed.data;
  const field = parsed.error.issues[0]?.path[0];
  return invalidCheck(guid, row, typeof field === 'string' ? field : 'check');
}

/**
 * What can be kept of an unusable check: enough to show it and to stop it. Only the field name
 * is reported, never its value (a header or a URL may hold a secret).
 */
function invalidCheck(guid: string, row: Row, field: string): WireCheck {
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
  return {
    guid,
    name: text(row.name) === '' ? guid : text(row.name),
    url: text(row.url),
    match_string: text(row.match_string),
    // An unreadable flag means "not running": the check is not run anyway.
    enabled: row.enabled === true,
    deleted: row.deleted === true,
    interval_sec: int(row.interval_sec),
    result_detail_max_chars: int(row.result_detail_max_chars),
    updated_at: text(row.updated_at),
    invalid_definition: field,
  };
}
