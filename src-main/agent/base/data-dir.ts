// Where the agent keeps its store and key when no --data-dir or UPTIME_AGENT_DATA_DIR is given:
// the same folder Electron uses as userData for the desktop app ("Uptime Agent"), so the
// headless command and the tray app on one machine share one agent identity.
// Everything in it is the user's alone: the store holds check header values, basic-auth
// passwords and unredacted private-check errors, so the folder is 0700 and every file 0600.
import { dirname, join, resolve } from 'node:path';
const { accessSync, chmodSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, statSync } =
  process.getBuiltinModule('node:fs');
const { homedir } = process.getBuiltinModule('node:os');

export const appFolderName = 'Uptime Agent';

/** The per-user configuration folder of the OS (Electron's appData): APPDATA, Application Support, XDG. */
export function configFolder(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') return env.APPDATA ?? join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(home, '.config');
}

/** Modes set explicitly (chmod after create), so that no umask widens them. */
export const privateDirMode = 0o700;
export const privateFileMode = 0o600;

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  return join(configFolder(platform, env, home), appFolderName);
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined && flag !== '') return flag;
  const fromEnv = env.UPTIME_AGENT_DATA_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return defaultDataDir();
}

export const storeFile = (dataDir: string): string => join(dataDir, 'agent.db');

/** Why the data folder cannot be used, in words the user can act on. */
export class DataDirError extends Error {
  readonly kind: 'read-only' | 'unusable';
  constructor(message: string, kind: 'read-only' | 'unusable') {
    super(message);
    this.name = 'DataDirError';
    this.kind = kind;
  }
}

export interface PreparedDataDir {
  /** Paths whose mode was narrowed (an older version, or another tool, made them wider). */
  tightened: string[];
}

/**
 * Creates the data folder 0700 (parents as the OS makes them) or narrows an existing one, and
 * narrows every file in it (and in its subfolders, e.g. logs) to 0600. Windows: the per-user
 * app-data folder already keeps other users out, and POSIX modes mean nothing there.
 */
export function prepareDataDir(dataDir: string, platform: NodeJS.Platform = process.platform): PreparedDataDir {
  makeDataDir(dataDir);
  const tightened: string[] = [];
  if (platform !== 'win32') tighten(dataDir, tightened, 0);
  try {
    accessSync(dataDir, constants.W_OK);
  } catch {
    throw new DataDirError(
      `the data folder ${dataDir} is read-only; make it writable for this user, or choose another with --data-dir`,
      'read-only',
    );
  }
  return { tightened };
}

function tighten(path: string, tightened: string[], depth: number): void {
  const stat = unlessGone(() => lstatSync(path), depth);
  if (stat === undefined || stat.isSymbolicLink()) return;
  const mode = stat.isDirectory() ? privateDirMode : privateFileMode;
  if ((stat.mode & 0o777 & ~mode) !== 0) {
    try {
      chmodSync(path, mode);
      tightened.push(path);
    } catch {
      // Not ours to change (another owner), or gone: the writability check says what to do.
    }
  }
  if (!stat.isDirectory() || depth > 2) return;
  for (const name of unlessGone(() => readdirSync(path), depth) ?? []) tighten(join(path, name), tightened, depth + 1);
}

/**
 * What read gives, or undefined when something inside the folder is gone since it was listed:
 * a running agent writes live-state.json through a temporary file renamed into place, so an
 * enroll beside it lists names that vanish a moment later. The folder itself must be there.
 */
function unlessGone<T>(read: () => T, depth: number): T | undefined {
  try {
    return read();
  } catch (error) {
    if (depth > 0 && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Creates the data folder 0700 and the parents it lacks, one level at a time. Not Node's
 * recursive mkdir: on a path where mkdir answers ENOENT although the parent exists (/proc/x)
 * it retries for ever at 100 % CPU. A path that is a file, or runs through one, is refused.
 */
export function makeDataDir(dataDir: string): void {
  const missing: string[] = [];
  let at = resolve(dataDir);
  for (;;) {
    let isDir: boolean;
    try {
      isDir = statSync(at).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw notAFolder(dataDir);
      if (code !== 'ENOENT') throw unusable(dataDir, error);
      missing.push(at);
      const parent = dirname(at);
      if (parent === at) break;
      at = parent;
      continue;
    }
    if (!isDir) throw notAFolder(dataDir);
    break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, { mode: privateDirMode });
    } catch (error) {
      // Made by a racing process in between: fine, as long as it is a folder.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir).isDirectory()) continue;
      throw unusable(dataDir, error);
    }
  }
}

const notAFolder = (dataDir: string): DataDirError =>
  new DataDirError(
    `the data folder ${dataDir} is a file (or inside one), not a folder; choose another with --data-dir`,
    'unusable',
  );

/** Narrows one file the agent just created (SQLite and libraries create with 0644 & ~umask). */
export function makePrivate(file: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32' || !existsSync(file)) return;
  if ((lstatSync(file).mode & 0o077) !== 0) chmodSync(file, privateFileMode);
}

function unusable(dataDir: string, error: unknown): DataDirError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new DataDirError(
      `the data folder ${dataDir} cannot be created here (${code === 'EROFS' ? 'read-only file system' : 'permission denied'}); choose another with --data-dir`,
      'read-only',
    );
  }
  if (code === 'ENOSPC')
    return new DataDirError(`the disk holding ${dataDir} is full; free some space and start again`, 'unusable');
  return new DataDirError(
    `the data folder ${dataDir} cannot be used (${code ?? 'unknown error'}); choose another with --data-dir`,
    'unusable',
  );
}
