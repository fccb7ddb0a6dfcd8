// Where the monitor's API key lives. The desktop app encrypts it with the OS keyring
// (src-main/electron); headless, it is a file only the user can read.
import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface KeyVault {
  load(): Promise<string | undefined>;
  save(apiKey: string): Promise<void>;
  clear(): Promise<void>;
  /** How the key is protected, for the UI: a plain file is said to be one. */
  readonly protection: 'os-encryption' | 'user-only-file';
}

/**
 * The API key in `<dataDir>/api-key`, mode 0600 from the moment it exists: written to a
 * temporary file created 0600 and renamed over, so no reader ever sees a partial key or a
 * wider mode. A key file found readable by others is narrowed back to 0600 on load.
 */
export function fileKeyVault(dataDir: string, onWarning: (message: string) => void = () => undefined): KeyVault {
  const file = join(dataDir, 'api-key');
  return {
    protection: 'user-only-file',
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      if (process.platform !== 'win32') {
        const mode = (await stat(file)).mode & 0o777;
        if ((mode & 0o077) !== 0) {
          await chmod(file, 0o600);
          onWarning(`the API key file ${file} was readable by other users (mode ${mode.toString(8)}); it is now 0600`);
        }
      }
      const key = text.trim();
      return key === '' ? undefined : key;
    },
    async save(apiKey) {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.tmp`;
      const handle = await open(temp, 'w', 0o600);
      try {
        await handle.writeFile(`${apiKey}\n`, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    },
    async clear() {
      await rm(file, { force: true });
    },
  };
}
