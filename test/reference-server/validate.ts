// Request body schemas (wire-api.md EnrollRequest, ResultsRequest, MonitorStatus) and the
// one-line 400 reasons built from them. Unknown extra fields are ignored, as a JSON API usually
// does; an optional field sent as null counts as absent.
import { z } from 'zod';
import { parseRfc3339 } from './timestamps.ts';

const dateTime = z.string().refine((v) => parseRfc3339(v) !== undefined, {
  error: 'not an RFC 3339 date-time',
});
const nonNegative = z.int({ error: 'must be an integer' }).min(0, { error: 'must be >= 0' });
const required = z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' });
/** Optional on the wire: absent or null both mean "not sent". */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => (v === null ? undefined : v));

export const enrollSchema = z.object({
  name: required,
  region: required,
  country: required,
  city: required,
  id: optional(z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty when present' })),
});

export const resultSchema = z.object({
  check_guid: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
  // Ignored on write (the caller is stamped) but required by the schema.
  monitor_id: z.string({ error: 'must be a string' }),
  ran_at: dateTime,
  success: z.boolean({ error: 'must be a boolean' }),
  http_status: nonNegative.max(999, { error: 'must be <= 999' }),
  // Negative latency is not a measurement; rejecting it surfaces agent bugs early.
  latency_ms: nonNegative,
  error: optional(z.string({ error: 'must be a string' })),
  response_sample: optional(z.string({ error: 'must be a string' })),
});

export const resultsRequestSchema = z.object({
  results: z.array(z.unknown(), { error: 'must be an array' }),
});

export const statusSchema = z.object({
  version: z.string({ error: 'must be a string' }),
  uptime_sec: nonNegative,
  unsent_results: nonNegative,
  last_outage_sec: optional(nonNegative),
  last_outage_ended_at: optional(dateTime),
});

function pathText(path: PropertyKey[], prefix: string): string {
  let out = prefix;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out;
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Validates `value`; on failure the reason names the first offending field, e.g.
 * `results[3].ran_at: missing` or `uptime_sec: must be >= 0`.
 */
export function validate<T extends z.ZodType>(schema: T, value: unknown, prefix = ''): Validation<z.output<T>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `${prefix || 'body'}: must be a JSON object` };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  if (!issue) return { ok: false, reason: 'invalid body' };
  const missing = issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined;
  return { ok: false, reason: `${pathText(issue.path, prefix)}: ${missing ? 'missing' : issue.message}` };
}

/** Parses a body as UTF-8 JSON, with a one-line reason when it is not. */
export function parseJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false; reason: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'malformed JSON: body is not valid UTF-8' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `malformed JSON: ${error instanceof Error ? error.message : 'parse error'}` };
  }
}
