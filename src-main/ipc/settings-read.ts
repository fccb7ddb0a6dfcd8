// Reading stored settings so that damage fails closed (design.md "Fail closed"), one rule for the
// desktop store and the headless settings.json: every field is read on its own, a bad field is
// reported and only that field falls back, and a security-relevant field falls back to its
// closed value. A file that cannot be read at all (truncated, not JSON, not an object) is every
// field's fallback: the user's egress policy is unknown, so it is `strict` until they save one.
import type { z } from 'zod';
import { settingsSchema, type Settings } from './contract.ts';

type Field = keyof Settings;

/**
 * What a damaged security-relevant field falls back to. The others keep their defaults, which
 * are already the closed choice: no proxy of one's own (the environment's, for the agent's own
 * traffic), checks dial directly (checksUseProxy false), no extra CA (only the system roots are
 * trusted), no private definitions file (no private check runs).
 */
const closedFallback: Partial<Settings> = { egressPolicy: 'strict' };

/** Stored settings as read: the values in force and, when the store was damaged, why. */
export interface SettingsRead {
  settings: Settings;
  /** Empty when every stored field was usable. */
  problem?: SettingsProblem;
}

/** What could not be used: the whole store, or some fields of it. */
export type SettingsProblem = { kind: 'unreadable'; reason: string } | { kind: 'fields'; fields: string[] };

const fields = settingsSchema.shape as Record<Field, z.ZodType>;

/** The settings when nothing stored can be read: defaults, closed where it matters. */
export function unreadableSettings(reason: string): SettingsRead {
  return { settings: settingsSchema.parse(closedFallback), problem: { kind: 'unreadable', reason } };
}

/** Stored settings (parsed JSON, or the desktop store's value), field by field. */
export function readStoredSettings(raw: unknown): SettingsRead {
  if (raw === undefined || raw === null) return { settings: settingsSchema.parse({}) };
  if (typeof raw !== 'object' || Array.isArray(raw)) return unreadableSettings('it does not hold settings');
  const kept: Record<string, unknown> = {};
  const bad: string[] = [];
  const stored = raw as Record<string, unknown>;
  for (const key of Object.keys(fields) as Field[]) {
    if (!(key in stored) || stored[key] === undefined) continue;
    const parsed = fields[key].safeParse(stored[key]);
    if (parsed.success) kept[key] = stored[key];
    else {
      bad.push(key);
      if (key in closedFallback) kept[key] = closedFallback[key];
    }
  }
  // Unknown fields (a newer version's) are ignored, never a reason to distrust the rest.
  const settings = settingsSchema.parse(kept);
  return bad.length === 0 ? { settings } : { settings, problem: { kind: 'fields', fields: bad } };
}

/** The problem in the reader's words: what happened, what follows, what to do. */
export function settingsProblemText(problem: SettingsProblem, where: string): string {
  const strict = 'checks run under the strict egress policy until you save the settings again';
  if (problem.kind === 'unreadable')
    return `The settings in ${where} cannot be read (${problem.reason}): defaults are used and ${strict}.`;
  const names = problem.fields.join(', ');
  const closesPolicy = problem.fields.some((field) => field in closedFallback);
  return `The settings in ${where} have unusable values (${names}): ${
    closesPolicy
      ? `those take their defaults and ${strict}`
      : 'those take their defaults until you save the settings again'
  }.`;
}

/**
 * The problem still to show after the user saved `patch`: the fallback of a closed field stays
 * a problem until that field itself is saved (then the file holds what is in force).
 */
export function problemAfterSave(
  problem: SettingsProblem | undefined,
  patch: Partial<Settings>,
): SettingsProblem | undefined {
  if (problem === undefined) return undefined;
  const closedSaved = Object.keys(closedFallback).every((key) => key in patch && patch[key as Field] !== undefined);
  if (closedSaved) return undefined;
  if (problem.kind === 'fields' && !problem.fields.some((field) => field in closedFallback)) return undefined;
  return problem;
}
