// Enrollment and reclaim: turns an enrollment token into this agent's monitor id and API key,
// saved together with the vault (key-vault.ts). The store learns of a new identity when the
// agent loads it (adoptIdentity), so that enrolling never needs the store.
import { join } from 'node:path';
import { z } from 'zod';
import { inputLimits } from '../base/input-limits.ts';
import type { ApiClient } from '../wire/api-client.ts';
import type { FailureFacts } from '../wire/failure.ts';
import {
  describeFailure,
  isEnrollField,
  saveFailureCause,
  type EnrollField,
  type EnrollOutcome,
  type FieldProblem,
} from './enroll-failure.ts';
import { anyMonitorIdPattern, monitorIdPattern } from '../wire/schemas.ts';
import { DataDirError, prepareDataDir } from '../base/data-dir.ts';
import type { EnrollmentDetails, KeyVault, MonitorPlace, StoredIdentity } from './key-vault.ts';
import { parseServerUrl } from './server-url.ts';
import type { Database } from '../store/database.ts';
import { transaction } from '../store/database.ts';
import { clearChecks } from '../store/checks.ts';
import { deleteMeta, getMeta, setMeta } from '../store/meta.ts';
const { randomBytes } = process.getBuiltinModule('node:crypto');
const { rm, writeFile } = process.getBuiltinModule('node:fs/promises');

export interface EnrollInput extends MonitorPlace {
  server: string;
  token: string;
  /** Set to reclaim a monitor by id after its enrollment was reset on the server. */
  reclaimId?: string | undefined;
  allowInsecureHttp?: boolean | undefined;
}

export type { EnrollmentDetails, MonitorPlace } from './key-vault.ts';
export {
  enrollFailureKinds,
  type EnrollFailure,
  type EnrollFailureKind,
  type EnrollField,
  type EnrollOutcome,
  type FieldProblem,
} from './enroll-failure.ts';

type InputFailure = { ok: false; message: string; field?: EnrollField; problem?: FieldProblem };

const field = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(inputLimits.enrollFieldChars, `${label} is longer than ${inputLimits.enrollFieldChars} characters`);

const inputSchema = z.object({
  name: field('name'),
  region: field('region'),
  country: field('country'),
  city: field('city'),
  // The token's rules, for every surface (the window's form and the command): it travels in a
  // header, where a curly quote, a line break or a non-Latin-1 character cannot go at all (the
  // request would fail before it left, and read as "could not reach the server"), and a real one
  // is visible ASCII, whole, within the wire's bound.
  token: z
    .string()
    .trim()
    .min(1, 'an enrollment token is required (paste the one from the "Add a monitor" page)')
    .max(
      inputLimits.enrollTokenChars,
      `the enrollment token is longer than ${inputLimits.enrollTokenChars} characters, so it cannot be one; copy the token again from the "Add a monitor" page`,
    )
    .regex(
      /^[\x21-\x7e]+$/,
      'the enrollment token holds characters a token never has (spaces, line breaks or curly quotes); copy it again from the "Add a monitor" page as one piece',
    ),
  reclaimId: z
    .string()
    .trim()
    .regex(anyMonitorIdPattern, 'the monitor id to reclaim must be printable characters without spaces')
    // The usual ids are lowercase; one typed in capitals is the same id. Chosen ids stay as given.
    .transform((id) => (monitorIdPattern.test(id.toLowerCase()) ? id.toLowerCase() : id))
    .optional(),
});

export type ValidEnrollInput = z.infer<typeof inputSchema> & { server: string };

/** Checks everything that can be checked before a request: a usage failure sends nothing. */
export function validateEnrollInput(input: EnrollInput): { ok: true; value: ValidEnrollInput } | InputFailure {
  const server = parseServerUrl(input.server, input.allowInsecureHttp);
  if (!server.ok) return { ok: false, message: server.message, field: 'server', problem: server.problem };
  const reclaimId = input.reclaimId === undefined || input.reclaimId.trim() === '' ? undefined : input.reclaimId;
  const parsed = inputSchema.safeParse({ ...input, reclaimId });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first?.path[0];
    return {
      ok: false,
      message: parsed.error.issues.map((i) => i.message).join('; '),
      ...(typeof field === 'string' && isEnrollField(field) ? { field } : {}),
      ...(first === undefined ? {} : { problem: problemOf(first.code) }),
    };
  }
  return { ok: true, value: { ...parsed.data, server: server.url } };
}

const problemOf = (code: string): FieldProblem =>
  code === 'too_big' ? 'too-long' : code === 'invalid_format' ? 'invalid' : 'required';

export interface EnrollDeps {
  /** Where the key goes: checked writable before any request, so the server and agent agree. */
  dataDir: string;
  vault: KeyVault;
  client: (server: string) => ApiClient;
  now?: () => Date;
}

export async function enroll(input: EnrollInput, deps: EnrollDeps): Promise<EnrollOutcome> {
  const valid = validateEnrollInput(input);
  if (!valid.ok) return { ...valid, kind: 'usage' };
  const writable = await checkWritable(deps.dataDir);
  if (!writable.ok)
    return {
      ok: false,
      kind: 'local-state',
      ...(writable.cause === undefined ? {} : { cause: writable.cause }),
      message: `${writable.message}. Nothing was sent to the server`,
    };
  const { server, token, reclaimId, ...place } = valid.value;
  const client = deps.client(server);
  let answer;
  try {
    answer = await client.enroll(token, { ...place, ...(reclaimId === undefined ? {} : { id: reclaimId }) });
  } finally {
    await client.close();
  }
  if (!answer.ok) {
    const { message: _log, action, ...facts } = answer.error;
    return {
      ...facts,
      ok: false,
      ...(reclaimId === undefined ? {} : { monitorId: reclaimId }),
      ...describeFailure(answer.error.status, answer.error.reason, answer.error.message, reclaimId, action),
    };
  }
  const { api_key: apiKey, monitor_id: monitorId } = answer.value;
  const details: EnrollmentDetails = { ...place, enrolled_at: (deps.now?.() ?? new Date()).toISOString() };
  try {
    // Key and identity in one atomic write: the key is the one thing that cannot be fetched again.
    await deps.vault.save({ apiKey, identity: { monitorId, server, details } });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = saveFailureCause(error);
    const why =
      cause === 'disk-full'
        ? 'the disk is full'
        : cause === 'not-writable'
          ? 'the data folder is not writable'
          : (code ?? 'write failed');
    return {
      ok: false,
      kind: 'not-saved',
      monitorId,
      ...(cause === undefined ? {} : { cause }),
      message: `the server enrolled monitor ${monitorId}, but its key could not be saved (${why}). Fix that, reset monitor ${monitorId}'s enrollment on the server's Monitors page, then reclaim monitor ${monitorId}`,
    };
  }
  // Kept and used as issued; said once, so that a typo'd server or token is noticed.
  if (!monitorIdPattern.test(monitorId))
    return {
      ok: true,
      monitorId,
      server,
      warning: `the server issued monitor id "${monitorId}", not of the usual twelve-character shape; it is kept and used as is`,
    };
  return { ok: true, monitorId, server };
}

/**
 * Creates the folder if needed and writes (then removes) a file the size of a key file: a
 * read-only folder or a full disk is found before the server hands out a key.
 */
export async function checkWritable(
  dataDir: string,
): Promise<{ ok: true } | { ok: false; message: string; cause?: FailureFacts['cause'] }> {
  const probe = join(dataDir, `.write-check.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    prepareDataDir(dataDir);
    await writeFile(probe, randomBytes(2048), { mode: 0o600 });
    return { ok: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = saveFailureCause(error);
    if (error instanceof DataDirError)
      return { ok: false, message: error.message, ...(cause === undefined ? {} : { cause }) };
    if (code === 'ENOSPC')
      return { ok: false, cause: 'disk-full', message: `the disk holding ${dataDir} is full; free some space` };
    return {
      ok: false,
      ...(cause === undefined ? {} : { cause }),
      message: `the data folder ${dataDir} is not writable (${code ?? 'error'}); make it writable or choose another with --data-dir`,
    };
  } finally {
    // The probe may never have been made (the folder is a file, or not there): nothing to remove.
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/**
 * Identity used to live in the store's meta rows; an agent that finds a key file without one
 * moves it to the vault (one atomic write) and then removes the rows. Returns the identity.
 */
export async function migrateLegacyIdentity(
  db: Database,
  vault: KeyVault,
  apiKey: string,
): Promise<StoredIdentity | undefined> {
  const legacy = legacyIdentity(db);
  if (legacy === undefined) return undefined;
  await vault.save({ apiKey, identity: legacy });
  transaction(db, () => {
    setMeta(db, 'store_owner', ownerTag(legacy));
    for (const key of ['monitor_id', 'server_url', 'enrollment'] as const) deleteMeta(db, key);
  });
  return legacy;
}

/** The identity an older version kept in the store, if any (read-only: `status` uses it too). */
export function legacyIdentity(db: Database): StoredIdentity | undefined {
  const monitorId = getMeta(db, 'monitor_id');
  const server = getMeta(db, 'server_url');
  if (monitorId === undefined || server === undefined) return undefined;
  const raw = getMeta(db, 'enrollment');
  return { monitorId, server, ...(raw === undefined ? {} : { details: JSON.parse(raw) as EnrollmentDetails }) };
}

const ownerTag = (identity: StoredIdentity): string => `${identity.monitorId} ${identity.details?.enrolled_at ?? ''}`;

/**
 * Makes the store follow the identity it is used with. Another monitor's check set is not ours;
 * the same monitor after a new enrollment (a reclaim) is re-sent its checks from the epoch.
 * Unsent results stay: they carry their monitor id (outbox.ts).
 */
export function adoptIdentity(db: Database, identity: StoredIdentity): 'same' | 'reclaimed' | 'other-monitor' {
  const before = getMeta(db, 'store_owner');
  const tag = ownerTag(identity);
  if (before === tag) return 'same';
  const sameMonitor = before?.split(' ')[0] === identity.monitorId;
  transaction(db, () => {
    if (!sameMonitor) clearChecks(db);
    deleteMeta(db, 'sync_cursor');
    deleteMeta(db, 'last_sync_at');
    setMeta(db, 'store_owner', tag);
  });
  return sameMonitor ? 'reclaimed' : 'other-monitor';
}

/** Forgets which monitor the store followed (after `forget`). */
export function disownStore(db: Database): void {
  transaction(db, () => {
    for (const key of ['store_owner', 'sync_cursor', 'last_sync_at'] as const) deleteMeta(db, key);
    clearChecks(db);
  });
}
