// Where the monitor's API key and identity live. The desktop app encrypts them with the OS
// keyring (src-main/electron); headless, they are one file only the user can read. The identity
// (monitor id, server, enrollment details) lives with the key, outside the store: a lost or
// corrupt store never forces a re-enrollment, and key and identity change in one atomic step.
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { readLocalFile } from '../base/local-file.ts';
import { prepareDataDir } from '../base/data-dir.ts';
const { chmod, open, rename, rm, stat } = process.getBuiltinModule('node:fs/promises');

/** Where the monitor is, as the server's Monitors page shows it. */
export interface MonitorPlace {
  name: string;
  region: string;
  country: string;
  city: string;
}

export interface EnrollmentDetails extends MonitorPlace {
  enrolled_at: string;
}

export interface StoredIdentity {
  monitorId: string;
  server: string;
  details?: EnrollmentDetails;
}

export interface Credentials {
  apiKey: string;
  /** Absent only in a key file written before the identity moved out of the store. */
  identity?: StoredIdentity;
}

export interface KeyVault {
  load(): Promise<Credentials | undefined>;
  save(credentials: { apiKey: string; identity: StoredIdentity }): Promise<void>;
  clear(): Promise<void>;
  /** How the key is protected, for the UI: a plain file is said to be one. */
  readonly protection: 'os-encryption' | 'user-only-file';
  /** The file another process (`uptime-agent enroll`) writes; watched by a running agent. */
  readonly file?: string;
}

/** The key file (or ciphertext) could not be understood: the user has to enroll or reclaim. */
export class DamagedKeyError extends Error {
  constructor(where: string) {
    super(
      `the stored key (${where}) is damaged: enroll this agent again, or reclaim its monitor with enroll --reclaim`,
    );
    this.name = 'DamagedKeyError';
  }
}

const credentialsSchema = z.object({
  api_key: z.string().min(1),
  monitor_id: z.string().min(1),
  server: z.string().min(1),
  enrollment: z
    .object({ name: z.string(), region: z.string(), country: z.string(), city: z.string(), enrolled_at: z.string() })
    .optional(),
});

/** The text form shared by the key file and the desktop ciphertext. */
export function credentialsText(credentials: { apiKey: string; identity: StoredIdentity }): string {
  const { apiKey, identity } = credentials;
  return `${JSON.stringify({
    api_key: apiKey,
    monitor_id: identity.monitorId,
    server: identity.server,
    ...(identity.details === undefined ? {} : { enrollment: identity.details }),
  })}\n`;
}

/** A key file is a few hundred bytes; far more is not one. */
const keyFileMaxBytes = 64 * 1024;

/**
 * A bare key, as earlier versions wrote it: one token of visible ASCII (it is sent in a header).
 * Anything else that is not JSON (words, several lines, binary) is a damaged file, not a key.
 */
const bareKey = /^[\x21-\x7e]{1,4096}$/;

/** Reads credentialsText; a bare key (written by earlier versions) has no identity yet. */
export function parseCredentials(text: string, where: string): Credentials | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!trimmed.startsWith('{')) {
    if (!bareKey.test(trimmed)) throw new DamagedKeyError(where);
    return { apiKey: trimmed };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(trimmed);
  } catch {
    throw new DamagedKeyError(where);
  }
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) throw new DamagedKeyError(where);
  const { api_key: apiKey, monitor_id: monitorId, server, enrollment } = parsed.data;
  return { apiKey, identity: { monitorId, server, ...(enrollment === undefined ? {} : { details: enrollment }) } };
}

export const keyFile = (dataDir: string): string => join(dataDir, 'api-key');

/**
 * `<dataDir>/api-key`, mode 0600 from the moment it exists: written to a temporary file created
 * 0600, synced, and renamed over, so no reader ever sees a partial file or a wider mode. A file
 * found readable by others is narrowed back to 0600 on load (unless readOnly, for `status`).
 */
export function fileKeyVault(
  dataDir: string,
  onWarning: (message: string) => void = () => undefined,
  options: { readOnly?: boolean } = {},
): KeyVault {
  const file = keyFile(dataDir);
  return {
    protection: 'user-only-file',
    file,
    async load() {
      const read = await readLocalFile(file, keyFileMaxBytes);
      if (!read.ok) {
        if (read.problem === 'missing') return undefined;
        // A folder, device, pipe or huge file where the key belongs is no key: damaged, not absent.
        if (read.problem !== 'unreadable') throw new DamagedKeyError(file);
        throw Object.assign(new Error(`the key file ${file} cannot be read (${read.code ?? 'error'})`), {
          code: read.code,
        });
      }
      const text = read.bytes.toString('utf8');
      if (process.platform !== 'win32' && options.readOnly !== true) {
        const mode = (await stat(file)).mode & 0o777;
        if ((mode & 0o077) !== 0) {
          await chmod(file, 0o600);
          onWarning(`the API key file ${file} was readable by other users (mode ${mode.toString(8)}); it is now 0600`);
        }
      }
      return parseCredentials(text, file);
    },
    async save(credentials) {
      prepareDataDir(dirname(file));
      await writeFileAtomic(file, credentialsText(credentials));
    },
    async clear() {
      await rm(file, { force: true });
    },
  };
}

/** Temp file (0600) + fsync + rename + fsync of the folder: the file is whole, old or new. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.chmod(0o600);
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (process.platform === 'win32') return;
  const dir = await open(dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
