// The desktop key vault: the API key and identity encrypted by the OS (safeStorage), only the
// ciphertext stored (base64, in the settings store; one write, so key and identity change together). Where the OS offers no real encryption (Linux with no
// keyring: backend "basic_text"), encrypting would only pretend; the key then goes to the same
// user-only file the headless command uses, and the user is told so.
import { join } from 'node:path';
import type { Credentials, KeyVault } from '../agent/identity/key-vault.ts';
import { credentialsText, DamagedKeyError, fileKeyVault, parseCredentials } from '../agent/identity/key-vault.ts';
import type { Logger } from '../agent/base/log.ts';

/** The parts of Electron's `safeStorage` used here (the async API, Electron 42+). */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  /** Linux only. */
  getSelectedStorageBackend(): string;
}

/** Where the ciphertext lives (a key in the settings store). */
export interface SecretSlot {
  get(): string | undefined;
  set(value: string | undefined): void;
}

/** How the key is kept, for app:info and the log. */
export interface KeyStorage {
  protection: KeyVault['protection'];
  description: string;
  warning?: string;
}

export interface DesktopVaultDeps {
  safeStorage: SafeStorageLike;
  slot: SecretSlot;
  platform: NodeJS.Platform;
  dataDir: string;
  log: Logger;
}

/** Backends that "encrypt" with a key stored beside the data: no protection at all. */
const weakBackends = new Set(['basic_text', 'unknown']);

function osName(platform: NodeJS.Platform, backend: string | undefined): string {
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'Windows (DPAPI, tied to your user account)';
  return `the desktop keyring (${backend ?? 'unknown'})`;
}

export async function createDesktopKeyVault(deps: DesktopVaultDeps): Promise<{ vault: KeyVault; storage: KeyStorage }> {
  const { safeStorage, slot, log } = deps;
  const keyFile = join(deps.dataDir, 'api-key');
  const file = fileKeyVault(deps.dataDir, (warning) => log.warn(warning));
  const backend = deps.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined;
  const available = await safeStorage.isAsyncEncryptionAvailable().catch(() => false);

  if (!available || (backend !== undefined && weakBackends.has(backend))) {
    const why =
      backend !== undefined && weakBackends.has(backend)
        ? `no desktop keyring is available to encrypt the API key (Electron's storage backend is "${backend}")`
        : 'the operating system could not encrypt the API key';
    const stranded =
      slot.get() !== undefined
        ? ' A key encrypted earlier cannot be read now: unlock the keyring and restart, or enroll again.'
        : '';
    const warning = `Because ${why}, the key is kept in a file only your user can read: ${keyFile}. To have it encrypted, install and unlock GNOME Keyring or KWallet, then restart Uptime Agent.${stranded}`;
    log.warn({ backend, keyFile }, `API key storage: ${warning}`);
    const vault: KeyVault = {
      protection: 'user-only-file',
      file: keyFile,
      load: () => file.load(),
      save: (credentials) => file.save(credentials),
      async clear() {
        slot.set(undefined);
        await file.clear();
      },
    };
    return {
      vault,
      storage: { protection: 'user-only-file', description: `A file only your user can read (${keyFile})`, warning },
    };
  }

  async function saveText(text: string): Promise<void> {
    const encrypted = await safeStorage.encryptStringAsync(text);
    slot.set(encrypted.toString('base64'));
  }
  const save: KeyVault['save'] = (credentials) => saveText(credentialsText(credentials));
  /** A key saved before the identity moved out of the store is kept as it was until re-saved. */
  const resave = (credentials: Credentials): Promise<void> =>
    credentials.identity === undefined
      ? saveText(credentials.apiKey)
      : save({ apiKey: credentials.apiKey, identity: credentials.identity });

  const vault: KeyVault = {
    protection: 'os-encryption',
    async load() {
      const stored = slot.get();
      if (stored === undefined) {
        // A key left in the user-only file (enrolled headless, or before a keyring existed) is
        // moved under encryption, so that no readable copy stays on disk.
        const legacy = await file.load();
        if (legacy === undefined) return undefined;
        await resave(legacy);
        await file.clear();
        log.warn(
          { keyFile },
          'the API key was moved from its user-only file into OS-encrypted storage; the headless command on this data folder now needs `enroll --reclaim`',
        );
        return legacy;
      }
      try {
        const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
        if (shouldReEncrypt) await saveText(result);
        return parseCredentials(result, 'OS-encrypted storage');
      } catch (error) {
        if (error instanceof DamagedKeyError) throw error;
        log.error(
          { err: error },
          'the stored API key could not be decrypted (the keyring changed or is locked); unlock it and restart, or enroll again with reclaim',
        );
        return undefined;
      }
    },
    save,
    async clear() {
      slot.set(undefined);
      await file.clear();
    },
  };
  const description = `Encrypted by ${osName(deps.platform, backend)}`;
  log.info({ backend }, `API key storage: ${description}`);
  return { vault, storage: { protection: 'os-encryption', description } };
}
