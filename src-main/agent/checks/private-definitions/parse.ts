// The private definitions file, from text to the entries the agent may run. Pure: reading and
// watching the file live in source.ts. One bad entry never stops the others; an entry is run only
// when it is unambiguous and fully valid (fail closed), and every problem names where it is.
import type { CheckDefinition } from '../../wire/schemas.ts';
import {
  crossFieldProblems,
  entrySchema,
  issueProblems,
  unknownFieldProblems,
  type FieldProblem,
  type ParsedEntry,
} from './entry-schema.ts';
import { parseJsonText } from './json-text.ts';

export interface DefinitionProblem {
  /** The entry's guid when it has a usable one. */
  guid?: string;
  /** Position in the `checks` array, from 0 (messages count entries from 1, as people do). */
  index: number;
  field?: string;
  /** An error leaves the entry out; a warning is only said, the entry still loads. */
  severity: 'error' | 'warning';
  /** Names the entry and field, never a value from the file. */
  message: string;
  /** The field's problem alone and what to change ("url must start with …"), for a check's own page. */
  detail?: string;
}

export interface ParsedDefinitions {
  entries: Map<string, CheckDefinition>;
  problems: DefinitionProblem[];
  /** Set when the file as a whole cannot be used; then there are no entries. */
  fileError?: string;
}

const shapeError =
  'the file must hold an object with a "checks" array, like { "checks": [ { "guid": "…", "url": "…" } ] } — fix the file and it reloads by itself';

export function parsePrivateDefinitions(text: string): ParsedDefinitions {
  const json = parseJsonText(text);
  if (!json.ok) return { entries: new Map(), problems: [], fileError: json.message };
  const checks = isRecord(json.value) ? json.value.checks : undefined;
  if (!Array.isArray(checks)) return { entries: new Map(), problems: [], fileError: shapeError };

  const problems: DefinitionProblem[] = [];
  const valid = new Map<number, ParsedEntry>();
  checks.forEach((raw: unknown, index) => {
    const entry = parseEntry(raw, index);
    problems.push(...entry.problems);
    if (entry.value !== undefined) valid.set(index, entry.value);
  });

  const duplicates = duplicateGuids(checks);
  for (const [guid, indexes] of duplicates) {
    problems.push({
      guid,
      index: indexes[0] ?? 0,
      field: 'guid',
      severity: 'error',
      message: `guid ${quoteGuid(guid)} appears ${indexes.length} times (${listEntries(indexes)}); keep one — none of them is run until then`,
    });
  }

  const entries = new Map<string, CheckDefinition>();
  for (const { guid, ...definition } of valid.values()) {
    if (!duplicates.has(guid)) entries.set(guid, withoutUndefined(definition));
  }
  return { entries, problems };
}

function parseEntry(raw: unknown, index: number): { value?: ParsedEntry; problems: DefinitionProblem[] } {
  if (!isRecord(raw)) {
    const message = `entry ${index + 1} is not an object — write each check as { "guid": "…", "url": "…", … }`;
    return { problems: [{ index, severity: 'error', message }] };
  }
  const guid = usableGuid(raw.guid);
  const result = entrySchema.safeParse(raw);
  const fieldProblems: FieldProblem[] = [
    ...(result.success ? [] : issueProblems(result.error.issues)),
    ...crossFieldProblems(raw),
    ...unknownFieldProblems(raw),
  ];
  const problems = fieldProblems.map((p) => toProblem(p, index, guid));
  const failed = problems.some((p) => p.severity === 'error');
  return result.success && !failed ? { value: result.data, problems } : { problems };
}

function toProblem(problem: FieldProblem, index: number, guid: string | undefined): DefinitionProblem {
  const where = guid === undefined ? `entry ${index + 1}` : `check ${quoteGuid(guid)} (entry ${index + 1})`;
  const consequence = problem.severity === 'error' ? '; this check is not run until it is fixed' : '';
  const message = `${where}: ${problem.text}${consequence}`;
  return {
    ...(guid === undefined ? {} : { guid }),
    index,
    field: problem.field,
    severity: problem.severity,
    message,
    detail: problem.text,
  };
}

/** Guids held by more than one entry, valid or not: we cannot know which one is meant. */
function duplicateGuids(checks: readonly unknown[]): Map<string, number[]> {
  const byGuid = new Map<string, number[]>();
  checks.forEach((raw, index) => {
    const guid = isRecord(raw) ? usableGuid(raw.guid) : undefined;
    if (guid !== undefined) byGuid.set(guid, [...(byGuid.get(guid) ?? []), index]);
  });
  return new Map([...byGuid].filter(([, indexes]) => indexes.length > 1));
}

function listEntries(indexes: readonly number[]): string {
  const numbers = indexes.map((i) => String(i + 1));
  const last = numbers.pop() ?? '';
  return `entries ${numbers.join(', ')} and ${last}`;
}

function usableGuid(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Guids are not secret, but one pasted by mistake could be long: cut it for messages. */
function quoteGuid(guid: string): string {
  const max = 80;
  return JSON.stringify(guid.length > max ? `${guid.slice(0, max)}…` : guid);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Absent optional fields stay absent, so a definition compares and prints like the file. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
