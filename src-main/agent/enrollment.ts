// Enrollment and reclaim: turns an enrollment token into this agent's monitor id and API key.
import { z } from 'zod';
import type { ApiClient } from './wire/api-client.ts';
import { monitorIdPattern } from './wire/schemas.ts';
import type { KeyVault } from './key-vault.ts';
import { parseServerUrl } from './server-url.ts';
import type { Database } from './store/database.ts';
import { transaction } from './store/database.ts';
import { clearChecks } from './store/checks.ts';
import { deleteMeta, getMeta, setMeta } from './store/meta.ts';

/** Where the monitor is, as the server's Monitors page shows it. */
export interface MonitorPlace {
  name: string;
  region: string;
  country: string;
  city: string;
}

export interface EnrollInput extends MonitorPlace {
  server: string;
  token: string;
  /** Set to reclaim a monitor by id after its enrollment was reset on the server. */
  reclaimId?: string | undefined;
  allowInsecureHttp?: boolean | undefined;
}

export interface EnrollmentDetails extends MonitorPlace {
  enrolled_at: string;
}

/** What went wrong, one kind per answer the user must act on differently. */
export type EnrollFailureKind =
  | 'usage'
  | 'token-rejected'
  | 'no-such-monitor'
  | 'still-enrolled'
  | 'bad-request'
  | 'unreachable';

export type EnrollOutcome =
  | { ok: true; monitorId: string; server: string }
  | { ok: false; kind: EnrollFailureKind; message: string };

const field = (label: string) =>
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).max(200, `${label} is longer than 200 characters`);

const inputSchema = z.object({
  name: field('name'),
  region: field('region'),
  country: field('country'),
  city: field('city'),
  token: z.string().trim().min(1, 'an enrollment token is required (paste the one from the "Add a monitor" page)'),
  reclaimId: z
    .string()
    .trim()
    .toLowerCase()
    .regex(monitorIdPattern, 'the monitor id to reclaim must be 12 characters of lowercase Crockford base32')
    .optional(),
});

export type ValidEnrollInput = z.infer<typeof inputSchema> & { server: string };

/** Checks everything that can be checked before a request: a usage failure sends nothing. */
export function validateEnrollInput(input: EnrollInput): { ok: true; value: ValidEnrollInput } | { ok: false; message: string } {
  const server = parseServerUrl(input.server, input.allowInsecureHttp);
  if (!server.ok) return { ok: false, message: server.message };
  const reclaimId = input.reclaimId === undefined || input.reclaimId.trim() === '' ? undefined : input.reclaimId;
  const parsed = inputSchema.safeParse({ ...input, reclaimId });
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => i.message).join('; ') };
  return { ok: true, value: { ...parsed.data, server: server.url } };
}

export interface EnrollDeps {
  db: Database;
  vault: KeyVault;
  client: (server: string) => ApiClient;
  now?: () => Date;
}

export async function enroll(input: EnrollInput, deps: EnrollDeps): Promise<EnrollOutcome> {
  const valid = validateEnrollInput(input);
  if (!valid.ok) return { ok: false, kind: 'usage', message: valid.message };
  const { server, token, reclaimId, ...place } = valid.value;
  const client = deps.client(server);
  let answer;
  try {
    answer = await client.enroll(token, { ...place, ...(reclaimId === undefined ? {} : { id: reclaimId }) });
  } finally {
    await client.close();
  }
  if (!answer.ok) return { ok: false, ...describeFailure(answer.error.status, answer.error.reason, answer.error.message, reclaimId, answer.error.action) };
  const { api_key: apiKey, monitor_id: monitorId } = answer.value;
  // The key is the one thing that cannot be fetched again: keep it before anything else.
  await deps.vault.save(apiKey);
  const details: EnrollmentDetails = { ...place, enrolled_at: (deps.now?.() ?? new Date()).toISOString() };
  transaction(deps.db, () => {
    // Another monitor's check set is not ours; the same monitor's is re-sent from the epoch.
    if (getMeta(deps.db, 'monitor_id') !== monitorId) clearChecks(deps.db);
    setMeta(deps.db, 'monitor_id', monitorId);
    setMeta(deps.db, 'server_url', server);
    setMeta(deps.db, 'enrollment', JSON.stringify(details));
    deleteMeta(deps.db, 'sync_cursor');
  });
  return { ok: true, monitorId, server };
}

function describeFailure(
  status: number | undefined,
  reason: string | undefined,
  message: string,
  reclaimId: string | undefined,
  action: string | undefined,
): { kind: EnrollFailureKind; message: string } {
  switch (status) {
    case 401:
      return {
        kind: 'token-rejected',
        message: 'the server refused the enrollment token: it is unknown, revoked or expired. Mint a new token on the "Add a monitor" page and try again.',
      };
    case 404:
      return {
        kind: 'no-such-monitor',
        message: `no monitor with id ${reclaimId ?? '?'} exists in this token's organisation. Enroll as a new monitor instead (leave out the monitor id).`,
      };
    case 409:
      return {
        kind: 'still-enrolled',
        message: `monitor ${reclaimId ?? '?'} is still enrolled. Reset its enrollment on the server's Monitors page first, then reclaim it again.`,
      };
    case 400:
      return {
        kind: 'bad-request',
        message: `the server refused the enrollment request${reason === undefined ? '' : `: ${reason}`}. Check the name, region, country and city.`,
      };
    default:
      // A proxy or certificate problem says what to do itself; "is the server running" would mislead.
      return { kind: 'unreachable', message: `could not enroll: ${message}. ${action === undefined ? 'Check the server URL and that the server is running' : capitalise(action)}.` };
  }
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export function readEnrollment(db: Database): { monitorId: string; server: string; details?: EnrollmentDetails } | undefined {
  const monitorId = getMeta(db, 'monitor_id');
  const server = getMeta(db, 'server_url');
  if (monitorId === undefined || server === undefined) return undefined;
  const raw = getMeta(db, 'enrollment');
  return { monitorId, server, ...(raw === undefined ? {} : { details: JSON.parse(raw) as EnrollmentDetails }) };
}
