// One entry of the private definitions file. It is stricter than the wire Check: a wire check with
// a bad value still syncs and then fails at run time with a named reason, but this file is edited
// by hand, so its mistakes are reported when it loads, by field name. Built from the shared
// definitionShape so a definition field added there is accepted here too.
// No message below may quote a value from the file: header values, post_data, match_string and
// URL passwords are secrets. Field names, header names that are valid tokens and guids are not.
import { z } from 'zod';
import { checkSchemeList, checkSchemeOf } from '../../wire/check-schemes.ts';
import { headerFault, type HeaderFault } from '../../probes/http-request.ts';
import { wireLimits } from '../../wire/limits.ts';
import { definitionShape } from '../../wire/schemas.ts';

/** Null is read as absent, as on the wire. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => (v === null ? undefined : v));

const int = () => z.number().int();

const urlForms = 'http://…, https://…, tcp://host:port or tls://host:port';

/** Why `url` cannot be used, or undefined when it can. Never quotes the URL (it may hold a password). */
export function urlProblem(url: string): string | undefined {
  if (url.trim() === '') return `is empty; set the target as ${urlForms}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `is not a valid URL; write it as ${urlForms}`;
  }
  if (checkSchemeOf(parsed.protocol) === undefined) return `must start with ${checkSchemeList('://')}`;
  if (parsed.protocol === 'tcp:' || parsed.protocol === 'tls:') {
    if (parsed.hostname === '') return `needs a host: write it as ${parsed.protocol}//host:port`;
    if (parsed.port === '' || parsed.port === '0')
      return `needs a port from 1 to 65535: write it as ${parsed.protocol}//host:port`;
  }
  return undefined;
}

// The probe's own header rule, so what it would refuse on every run is reported once, here.
// A bad name is not quoted: a common slip is "Authorization: Bearer …" as the name. A name that
// passed is a plain token and may be; a value never is.
const headerFaultWords = (i: number, name: string): Record<HeaderFault, string> => ({
  'bad-name': `entry ${i + 1} has a name that is not a valid HTTP header name (letters, digits and -, no ':' or spaces) — write the name alone as the key and the value after it, like "Authorization": "Bearer …"`,
  'line-break': `"${name}" has a value with a line break or NUL character — remove it`,
  unsendable: `"${name}" has a character in its value that HTTP headers cannot carry (a control character, or a letter beyond Latin-1) — remove it`,
  framing: `"${name}" cannot be set: the agent frames each request itself — remove it`,
});

const headersSchema = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  const names = Object.keys(headers);
  if (names.length > wireLimits.headersPerCheck) {
    ctx.addIssue({
      code: 'custom',
      message: `has ${names.length} entries; at most ${wireLimits.headersPerCheck} are allowed — remove some`,
    });
  }
  names.forEach((name, i) => {
    const fault = headerFault(name, headers[name] ?? '');
    if (fault !== undefined) ctx.addIssue({ code: 'custom', message: headerFaultWords(i, name)[fault] });
  });
});

export const entrySchema = z.object({
  ...definitionShape,
  guid: z.string().min(1),
  url: z.string().superRefine((url, ctx) => {
    const problem = urlProblem(url);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }),
  // The file may leave it out: an absent match string asserts nothing.
  match_string: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  match_mode: optional(z.enum(['contains', 'not_contains'])),
  headers: optional(headersSchema),
  status_code_op: optional(z.enum(['eq', 'lt', 'gt'])),
  status_code_value: optional(int().min(100).max(599)),
  timeout_sec: optional(int().min(0).max(wireLimits.maxTimeoutSec)),
  max_response_time_ms: optional(int().min(0)),
  cert_expiry_warn_days: optional(int().min(0)),
});
export type ParsedEntry = z.infer<typeof entrySchema>;

export const knownFields: readonly string[] = Object.keys(entrySchema.shape);

/** What each field must hold, said once per field whichever check failed. */
const expectations: Record<string, string> = {
  guid: 'must be a non-empty string: the guid of the check on the server',
  url: `must be a string: ${urlForms}`,
  match_string: 'must be a string (empty asserts nothing)',
  match_mode: 'must be "contains" or "not_contains"',
  post_data: 'must be a string',
  headers: `must be an object of header names to string values, at most ${wireLimits.headersPerCheck} of them`,
  disable_redirects: 'must be true or false',
  status_code_op: 'must be "eq", "lt" or "gt"',
  status_code_value: 'must be a whole number from 100 to 599',
  timeout_sec: `must be a whole number of seconds from 0 to ${wireLimits.maxTimeoutSec} (0 means the default of ${wireLimits.defaultTimeoutSec})`,
  max_response_time_ms: 'must be a whole number of milliseconds, 0 or more (0 means no limit)',
  insecure_skip_verify: 'must be true or false',
  invert_result: 'must be true or false',
  cert_expiry_warn_days: 'must be a whole number of days, 0 or more',
};

export interface FieldProblem {
  field: string;
  severity: 'error' | 'warning';
  /** Starts with the field name; says what it must hold. */
  text: string;
}

/** One problem per field and reason, from the schema's issues. */
export function issueProblems(issues: readonly z.core.$ZodIssue[]): FieldProblem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const issue of issues) {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : '(entry)';
    const rule = issue.code === 'custom' ? issue.message : (expectations[field] ?? issue.message);
    const text = `${field} ${rule}`;
    if (seen.has(text)) continue;
    seen.add(text);
    problems.push({ field, severity: 'error', text });
  }
  return problems;
}

const isSet = (v: unknown) => v !== undefined && v !== null;

/** Rules across fields, read from the raw entry so they are reported next to field errors. */
export function crossFieldProblems(raw: Record<string, unknown>): FieldProblem[] {
  if (isSet(raw.status_code_op) && !isSet(raw.status_code_value)) {
    return [
      {
        field: 'status_code_value',
        severity: 'error',
        text: 'status_code_value is required when status_code_op is set — add the status code to compare with',
      },
    ];
  }
  if (!isSet(raw.status_code_op) && isSet(raw.status_code_value)) {
    return [
      {
        field: 'status_code_op',
        severity: 'warning',
        text: 'status_code_value has no effect without status_code_op — add "eq", "lt" or "gt", or remove it',
      },
    ];
  }
  return [];
}

/** A warning per field the entry has that no definition uses; the entry still loads. */
export function unknownFieldProblems(raw: Record<string, unknown>): FieldProblem[] {
  return Object.keys(raw)
    .filter((name) => !knownFields.includes(name))
    .map((name) => {
      const plain = isPlainName(name);
      return {
        field: plain ? name : '(unknown field)',
        severity: 'warning' as const,
        text: `${plain ? `unknown field "${name}"` : 'a field whose name is not a plain word'} is ignored — check its spelling (known fields: ${knownFields.join(', ')})`,
      };
    });
}

// Only a short plain word is quoted back: a name with spaces or ':' may be a pasted secret
// ("Authorization: Bearer …" written as a key).
function isPlainName(name: string): boolean {
  return /^[A-Za-z0-9_.-]{1,60}$/.test(name);
}
