// Zod schemas for every body that crosses the wire (wire-api.md, version 1.0.0) and for the
// check definition fields the private definitions file shares with the wire Check.
// Unknown extra fields are stripped, never rejected: a newer server may add fields.
import { z } from 'zod';
import { isRfc3339 } from './rfc3339.ts';

/** An optional field that some servers send as null; null is read as absent. */
const opt = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema.optional());

/**
 * The fields that say what a check does, with their wire names. A wire Check carries them, and a
 * private-definition entry supplies them locally for a check whose definition the server wiped.
 * Values are not range-checked here: a bad value fails the check with a named reason at run time
 * (fail closed) instead of rejecting a whole sync delta.
 */
export const definitionShape = {
  url: z.string(),
  timeout_sec: opt(z.number().int()),
  match_string: z.string(),
  match_mode: opt(z.string()),
  post_data: opt(z.string()),
  headers: opt(z.record(z.string(), z.string())),
  disable_redirects: opt(z.boolean()),
  status_code_op: opt(z.string()),
  status_code_value: opt(z.number().int()),
  max_response_time_ms: opt(z.number().int()),
  // Sent by the real server although the wire document does not list them (design.md).
  insecure_skip_verify: opt(z.boolean()),
  invert_result: opt(z.boolean()),
  cert_expiry_warn_days: opt(z.number().int()),
};

export const checkDefinitionSchema = z.object(definitionShape);
/** What a probe needs to run one check. */
export type CheckDefinition = z.infer<typeof checkDefinitionSchema>;

/** Names of the definition fields, for merging a private entry over a wiped wire check. */
export const definitionFieldNames = Object.keys(definitionShape) as (keyof CheckDefinition)[];

/** A field the agent only displays or ignores: an odd value is read as absent, never refused. */
const lenient = <T extends z.ZodType>(schema: T) => opt(schema).catch(undefined);

/** An RFC 3339 date-time in any of its forms, kept as the exact string the server sent. */
export const rfc3339String = z.string().refine(isRfc3339, 'not an RFC 3339 date-time');

/**
 * One check of a sync delta. Only the fields the agent acts on are validated; a check that fails
 * here is kept as an invalid definition (check-parse.ts), it never fails the whole delta.
 */
export const checkSchema = z.object({
  ...definitionShape,
  guid: z.string().min(1),
  name: z.string().catch(''),
  enabled: z.boolean(),
  deleted: z.boolean(),
  interval_sec: z.number().int(),
  result_detail_max_chars: z.number().int().min(0),
  // Absent on a private-definition check: the server wipes url and match_string.
  url: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  match_string: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  // Received and ignored (server-side alerting), or informational: never a reason to refuse.
  down_interval_sec: lenient(z.number()),
  updated_at: z.string().catch(''),
  // The real server's scale-out fields (design.md "Shared checks"); absent means 1 and 0.
  monitor_count: lenient(z.number().int().min(0)),
  monitor_rank: lenient(z.number().int().min(0)),
});
export type WireCheck = z.infer<typeof checkSchema> & {
  /** Set when the server's definition is unusable: the field at fault. Shown, never run. */
  invalid_definition?: string;
};

/** The delta's envelope; each check is parsed on its own (check-parse.ts). */
export const checksResponseSchema = z.object({
  checks: z.array(z.unknown()),
  server_time: rfc3339String,
});
export type ChecksResponse = z.infer<typeof checksResponseSchema>;

export interface EnrollRequest {
  name: string;
  region: string;
  country: string;
  city: string;
  id?: string;
}

/** The usual monitor id: twelve lowercase Crockford base32 characters. */
export const monitorIdPattern = /^[0-9a-hjkmnp-tv-z]{12}$/;

/**
 * Any monitor id the server may issue: the server's own agent takes any non-empty id, and platform
 * tokens allow chosen ones (`edge-01`). Only printable ASCII, so it fits a file, a log line and a path.
 */
export const anyMonitorIdPattern = /^[\x21-\x7e]{1,200}$/;

export const enrollResponseSchema = z.object({
  api_key: z.string().min(1),
  // Never a reason to throw the issued key away: an unusual shape is kept, with a warning.
  monitor_id: z.string().regex(anyMonitorIdPattern, 'a non-empty id of printable characters'),
});
export type EnrollResponse = z.infer<typeof enrollResponseSchema>;

export interface WireResult {
  check_guid: string;
  monitor_id: string;
  ran_at: string;
  success: boolean;
  http_status: number;
  latency_ms: number;
  error?: string;
  response_sample?: string;
}

export const resultsResponseSchema = z.object({ accepted: z.number().int().min(0) });
export type ResultsResponse = z.infer<typeof resultsResponseSchema>;

export interface MonitorStatus {
  version: string;
  uptime_sec: number;
  unsent_results: number;
  last_outage_sec?: number;
  last_outage_ended_at?: string;
}

export const okResponseSchema = z.object({ status: opt(z.string()) });
export type OkResponse = z.infer<typeof okResponseSchema>;
