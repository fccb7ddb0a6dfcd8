// Settings of a headless host (the web dashboard): the same shape as the desktop shell's, kept
// in `settings.json` in the data folder. Read once, validated with the contract's schema, and
// written whole on every change (temporary file + rename, so a crash never leaves half a file).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDirMode } from '../../agent/base/data-dir.ts';
import { settingsSchema, type Settings } from '../../ipc/contract.ts';
import type { SettingsStore } from '../../ipc/handlers.ts';

export const settingsFile = (dataDir: string): string => join(dataDir, 'settings.json');

/** Reads settings.json; a missing file is the defaults, a broken one too (with a warning). */
export function readSettingsFile(dataDir: string, onWarning: (message: string) => void = () => undefined): Settings {
  const file = settingsFile(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      onWarning(
        `settings file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); using the defaults`,
      );
    return settingsSchema.parse({});
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    onWarning(`settings file ${file} is not valid JSON; using the defaults until settings are saved again`);
    return settingsSchema.parse({});
  }
  const parsed = settingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  onWarning(
    `settings file ${file}: ${issue === undefined ? 'invalid' : `${issue.path.join('.') || 'file'}: ${issue.message}`}; using the defaults until settings are saved again`,
  );
  return settingsSchema.parse({});
}

export function fileSettingsStore(dataDir: string, onWarning?: (message: string) => void): SettingsStore {
  let current = readSettingsFile(dataDir, onWarning);
  const file = settingsFile(dataDir);
  return {
    get: () => current,
    update(patch) {
      // Parsing the merge again applies the schema's trimming and bounds to the patched fields.
      const next = settingsSchema.parse({ ...current, ...patch });
      // Settings can be the first thing written to a new data folder: private from the start.
      mkdirSync(dataDir, { recursive: true, mode: privateDirMode });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      renameSync(temporary, file);
      current = next;
      return next;
    },
  };
}
