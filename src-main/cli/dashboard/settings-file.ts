// Settings of a headless host (the web dashboard): the same shape as the desktop shell's, kept
// in `settings.json` in the data folder. Read once, validated with the contract's schema, and
// written whole on every change (temporary file + rename, so a crash never leaves half a file).
import { join } from 'node:path';
import { localFileProblemText, readLocalFileSync } from '../../agent/base/local-file.ts';
import { makeDataDir } from '../../agent/base/data-dir.ts';
import { settingsSchema, type Settings } from '../../ipc/contract.ts';
import type { SettingsStore } from '../../ipc/handlers.ts';
import {
  problemAfterSave,
  readStoredSettings,
  settingsProblemText,
  unreadableSettings,
  type SettingsRead,
} from '../../ipc/settings-read.ts';
const { renameSync, writeFileSync } = process.getBuiltinModule('node:fs');

export const settingsFile = (dataDir: string): string => join(dataDir, 'settings.json');

/** Far above any real settings file; a bigger one is not settings. */
export const settingsMaxBytes = 1024 * 1024;

/**
 * Reads settings.json field by field (ipc/settings-read.ts): a missing file is the defaults; a
 * damaged one fails closed (an unreadable egress policy is strict) and says so.
 */
export function readSettingsRead(dataDir: string): SettingsRead & { problemText?: string } {
  const file = settingsFile(dataDir);
  const read = readLocalFileSync(file, settingsMaxBytes);
  let result: SettingsRead;
  if (!read.ok)
    result =
      read.problem === 'missing'
        ? { settings: settingsSchema.parse({}) }
        : unreadableSettings(`the file ${localFileProblemText(read, settingsMaxBytes)}`);
  else {
    let raw: unknown;
    try {
      raw = JSON.parse(read.bytes.toString('utf8'));
      result = readStoredSettings(raw ?? {});
    } catch {
      result = unreadableSettings('it is not complete JSON');
    }
  }
  return result.problem === undefined ? result : { ...result, problemText: settingsProblemText(result.problem, file) };
}

/** The settings in force; a damaged file is reported through `onWarning`. */
export function readSettingsFile(dataDir: string, onWarning: (message: string) => void = () => undefined): Settings {
  const read = readSettingsRead(dataDir);
  if (read.problemText !== undefined) onWarning(read.problemText);
  return read.settings;
}

export function fileSettingsStore(dataDir: string, onWarning?: (message: string) => void): SettingsStore {
  const read = readSettingsRead(dataDir);
  if (read.problemText !== undefined) onWarning?.(read.problemText);
  let current = read.settings;
  // Shown until the user saves the field that fell back closed (ipc/settings-read.ts).
  let problem = read.problem;
  const file = settingsFile(dataDir);
  return {
    get: () => current,
    problem: () => (problem === undefined ? undefined : settingsProblemText(problem, file)),
    update(patch) {
      // Parsing the merge again applies the schema's trimming and bounds to the patched fields.
      const next = settingsSchema.parse({ ...current, ...patch });
      // Settings can be the first thing written to a new data folder: private from the start.
      makeDataDir(dataDir);
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      renameSync(temporary, file);
      current = next;
      problem = problemAfterSave(problem, patch);
      return next;
    },
  };
}
