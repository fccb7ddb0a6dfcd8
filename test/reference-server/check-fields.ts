// Validation of the check fields the admin API accepts. The reference server only ever sends
// checks a real server could send (wire-api.md limits), so bad admin input is a test bug and
// throws; tests that need a malformed sync body use a fault instead (faults.ts).
import { z } from 'zod';
import type { CheckFields, CheckInput, CheckPatch } from './types.ts';

const count = z.number().int().min(0);

/** Optional fields; in a patch each may also be null, which clears it. */
const optionalShape = {
  timeout_sec: z.number().int().min(0).max(60),
  match_mode: z.string(),
  post_data: z.string(),
  headers: z.record(z.string(), z.string()).refine((h) => Object.keys(h).length <= 10, {
    message: 'at most 10 headers per check',
  }),
  disable_redirects: z.boolean(),
  status_code_op: z.string(),
  status_code_value: z.number().int(),
  max_response_time_ms: count,
  down_interval_sec: count,
  insecure_skip_verify: z.boolean(),
  invert_result: z.boolean(),
  cert_expiry_warn_days: count,
};

const requiredShape = {
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  interval_sec: z.number().int().min(1),
  match_string: z.string(),
  result_detail_max_chars: count,
};

/** Every key of `shape` made optional and nullable, for patches where null clears a field. */
function clearable<S extends Record<string, z.ZodType>>(shape: S) {
  const entries = Object.entries(shape).map(([k, v]) => [k, v.nullable().optional()]);
  return Object.fromEntries(entries) as { [K in keyof S]: z.ZodOptional<z.ZodNullable<S[K]>> };
}

const fieldsSchema = z.strictObject(requiredShape).extend(z.object(optionalShape).partial().shape);
const patchSchema = z.strictObject(requiredShape).partial().extend(clearable(optionalShape));

/** Defaults of createCheck for the required wire fields the caller may leave out. */
export const checkDefaults = {
  enabled: true,
  interval_sec: 60,
  match_string: '',
  // Generous enough to show a useful error, small enough to prove the agent caps.
  result_detail_max_chars: 256,
} as const;

/** The definition fields a private-definition check has wiped (wire-api.md, point 6). */
export const privateFieldNames = ['url', 'match_string', 'post_data', 'headers'] as const;

/** Entries whose value is not undefined (an explicit `undefined` means "not given"). */
function definedEntries(object: object): [string, unknown][] {
  return Object.entries(object as Record<string, unknown>).filter(([, v]) => v !== undefined);
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${what}: ${z.prettifyError(result.error).replace(/\n/g, '; ')}`);
  return result.data;
}

/** Validates createCheck input and fills the defaults. */
export function fieldsFromInput(input: CheckInput): CheckFields {
  const { guid: _guid, orgId: _orgId, ...fields } = input;
  const defined = Object.fromEntries(definedEntries(fields));
  return parse(fieldsSchema, { ...checkDefaults, ...defined }, 'createCheck');
}

/** Applies a validated patch: a null value removes the field, an undefined one is ignored. */
export function applyPatch(fields: CheckFields, patch: CheckPatch): CheckFields {
  const changes = definedEntries(parse(patchSchema, patch, 'updateCheck'));
  const merged = Object.entries<unknown>({ ...fields, ...Object.fromEntries(changes) }).filter(([, v]) => v !== null);
  return parse(fieldsSchema, Object.fromEntries(merged), 'updateCheck');
}

/** Parses a definition read back from the database. */
export function fieldsFromJson(json: string): CheckFields {
  return parse(fieldsSchema, JSON.parse(json), 'stored check definition');
}
