// The shell's persistent state in one electron-store file (config.json in the user-data folder):
// the settings the UI edits, the window's bounds, and the API key's ciphertext. electron-store
// imports electron, so only the entry creates it; everything here works on a small key-value
// interface, which the tests back with a plain object or the `conf` package it is built on.
import { basename, dirname, extname, join } from 'node:path';
import { z } from 'zod';
import { settingsSchema, type Settings, type SettingsPatch } from '../ipc/contract.ts';
import type { SettingsStore } from '../ipc/handlers.ts';
import {
  problemAfterSave,
  readStoredSettings,
  settingsProblemText,
  unreadableSettings,
  type SettingsProblem,
} from '../ipc/settings-read.ts';
const { renameSync } = process.getBuiltinModule('node:fs');

const closedWhenUnreadable: Partial<Settings> = { egressPolicy: unreadableSettings('').settings.egressPolicy };
import type { SecretSlot } from './key-vault.ts';
import { savedBoundsSchema, type SavedBounds } from './window-bounds.ts';

/** The part of electron-store (conf) used here. */
export interface StoreBacking {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export const storeKeys = { settings: 'settings', window: 'window', apiKey: 'apiKeyCiphertext' } as const;

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  // Input shape: defaulted fields may be absent, and unknown fields (written by a newer version)
  // are allowed, so that going back a version never makes the whole file invalid.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

/**
 * electron-store's `schema` option: checked on load and on every write. The settings are only
 * required to be an object: a bad field must fall back alone (and closed, ipc/settings-read.ts),
 * not make the whole file fail the schema and be set aside with every setting in it.
 */
export const storeSchema = {
  [storeKeys.settings]: { type: 'object' },
  [storeKeys.window]: jsonSchemaOf(savedBoundsSchema),
  [storeKeys.apiKey]: { type: 'string' },
};

export interface MigrationStore {
  has(key: string): boolean;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** Values that fail their field's schema take their fallback (closed where it matters), the rest kept. */
const readSettings = (raw: unknown): Settings => readStoredSettings(raw).settings;

/** JSON has no undefined: a cleared optional field is removed rather than stored. */
const stored = (settings: Settings): Settings => JSON.parse(JSON.stringify(settings)) as Settings;

/**
 * electron-store's `migrations`, keyed by the app version that first needs them; they run once,
 * in version order, when an older store is opened by a newer app. A future one reads the old
 * shape with `get`, writes the new one with `set` and removes what is gone with `delete`.
 */
export const storeMigrations: Record<string, (store: MigrationStore) => void> = {
  // 0.1.0, the first release with a schema: a file written before it (no recorded version) may
  // hold values the schema now rejects. Keep the valid ones rather than setting the file aside.
  '0.1.0': (store) => {
    if (store.has(storeKeys.settings))
      store.set(storeKeys.settings, stored(readSettings(store.get(storeKeys.settings))));
    if (store.has(storeKeys.window) && !savedBoundsSchema.safeParse(store.get(storeKeys.window)).success)
      store.delete(storeKeys.window);
  },
};

export interface ShellStore extends SettingsStore {
  problem(): string | undefined;
  bounds: { get(): SavedBounds | undefined; set(bounds: SavedBounds): void };
  apiKeySlot: SecretSlot;
}

/**
 * `setAside`: why the store file was unreadable and set aside (the fresh one then runs strict
 * until the user saves an egress policy).
 */
export function createShellStore(backing: StoreBacking, setAside?: string): ShellStore {
  let problem: SettingsProblem | undefined =
    setAside === undefined
      ? readStoredSettings(backing.get(storeKeys.settings)).problem
      : unreadableSettings(setAside).problem;
  const get = (): Settings => {
    const raw = backing.get(storeKeys.settings);
    const read = readSettings(raw);
    // The set-aside file's policy is unknown: strict, until a saved one is in the fresh store.
    const saved = typeof raw === 'object' && raw !== null && 'egressPolicy' in raw;
    return problem?.kind === 'unreadable' && !saved ? { ...read, ...closedWhenUnreadable } : read;
  };
  return {
    get,
    update(patch: SettingsPatch) {
      const next = stored(settingsSchema.parse({ ...get(), ...patch }));
      backing.set(storeKeys.settings, next);
      problem = problemAfterSave(problem, patch);
      return next;
    },
    problem: () => (problem === undefined ? undefined : settingsProblemText(problem, 'the app’s settings')),
    bounds: {
      get() {
        const parsed = savedBoundsSchema.safeParse(backing.get(storeKeys.window));
        return parsed.success ? parsed.data : undefined;
      },
      set(bounds) {
        const parsed = savedBoundsSchema.safeParse(bounds);
        // A window dragged mostly off-screen can report odd sizes; those are not worth keeping.
        if (parsed.success) backing.set(storeKeys.window, parsed.data);
      },
    },
    apiKeySlot: {
      get() {
        const value = backing.get(storeKeys.apiKey);
        return typeof value === 'string' && value !== '' ? value : undefined;
      },
      set(value) {
        if (value === undefined) backing.delete(storeKeys.apiKey);
        else backing.set(storeKeys.apiKey, value);
      },
    },
  };
}

/**
 * Opens the store; when the file cannot be read or breaks the schema, `setAside` moves it out of
 * the way (kept for the user, not deleted) and it is opened again, empty.
 */
export function openWithRecovery<T>(open: () => T, setAside: (error: unknown) => void): T {
  try {
    return open();
  } catch (error) {
    setAside(error);
    return open();
  }
}

/** Moves a broken store file to "<name>.broken-<time><ext>" beside it; returns where, if it existed. */
export function setAsideFile(file: string, now = Date.now()): string | undefined {
  const ext = extname(file);
  const aside = join(dirname(file), `${basename(file, ext)}.broken-${now}${ext}`);
  try {
    renameSync(file, aside);
    return aside;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The agent's tunables from the settings (only what the user set overrides the defaults), one mapping shared with the headless command. */
export { networkFrom, tunablesFrom } from '../ipc/settings-tunables.ts';
