// Check sync: fetch the delta since the stored cursor and apply it with its server_time.
import type { ApiError } from '../wire/api-error.ts';
import type { ApiClient } from '../wire/api-client.ts';
import type { Database } from '../store/database.ts';
import { applyDelta, type DeltaSummary } from '../store/checks.ts';
import { parseDelta } from '../wire/check-parse.ts';
import { deleteMeta, getMeta } from '../store/meta.ts';
import type { Logger } from '../base/log.ts';

export type SyncOutcome =
  | { ok: true; summary: DeltaSummary & { skipped: number }; cursor: string; cursorWasReset: boolean }
  | { ok: false; error: ApiError };

export interface SyncDeps {
  db: Database;
  client: ApiClient;
  apiKey: string;
  log: Logger;
  signal?: AbortSignal;
}

/**
 * One sync round. The cursor is always the last response's server_time, never the local clock
 * (wire-api.md rule 1). A 400 means the stored cursor is corrupt: it is reset to the epoch and
 * the sync retried once, which re-sends the whole set (harmless: upserts are idempotent).
 * Any other failure leaves the check set and the cursor as they were.
 */
export async function syncOnce(deps: SyncDeps): Promise<SyncOutcome> {
  const first = await fetchAndApply(deps);
  if (first.ok || first.error.status !== 400) return first;
  deps.log.warn(
    { reason: first.error.reason },
    'the server refused the sync cursor; resetting it and syncing everything again',
  );
  deleteMeta(deps.db, 'sync_cursor');
  const second = await fetchAndApply(deps);
  return second.ok ? { ...second, cursorWasReset: true } : second;
}

async function fetchAndApply(deps: SyncDeps): Promise<SyncOutcome> {
  const since = getMeta(deps.db, 'sync_cursor');
  const answer = await deps.client.checks(deps.apiKey, since, deps.signal);
  if (!answer.ok) return answer;
  const delta = parseDelta(answer.value.checks);
  const summary = { ...applyDelta(deps.db, delta.checks, answer.value.server_time), skipped: delta.skipped };
  if (summary.invalid > 0 || delta.skipped > 0) {
    deps.log.warn(
      { invalid: summary.invalid, skipped: delta.skipped },
      'some checks of the delta are unusable; they are shown as invalid and not run, the rest applies',
    );
  }
  return { ok: true, summary, cursor: answer.value.server_time, cursorWasReset: false };
}
