// Who this agent is to the server: the monitor id, the server and the API key, with the client
// that speaks for it. Key and identity live together in the vault (key-vault.ts), outside the
// store. Enroll and reclaim make one, forget drops it; the unsent results stay, each with its
// monitor id, so that only the current monitor's are sent and a reclaim delivers the others.
import {
  adoptIdentity,
  disownStore,
  enroll as enrollWith,
  migrateLegacyIdentity,
  type EnrollInput,
  type EnrollOutcome,
} from './enrollment.ts';
import { DamagedKeyError, type EnrollmentDetails, type KeyVault, type StoredIdentity } from './key-vault.ts';
import type { Logger } from '../base/log.ts';
import type { Database } from '../store/database.ts';
import type { ApiClient } from '../wire/api-client.ts';
import type { Outbox } from '../store/outbox.ts';

/** A call that could not be made or failed (not enrolled, network, refused...). */
export type { CallFailure } from '../wire/api-error.ts';

/** The identity in use: who calls the server, with which key, through which client. */
export interface Identity {
  apiKey: string;
  monitorId: string;
  server: string;
  client: ApiClient;
}

/** What the UI and the CLI may show of the identity: never the key. */
export interface IdentityView {
  monitorId: string;
  server: string;
  details?: EnrollmentDetails;
}

export interface IdentityHolder {
  current(): Identity | undefined;
  view(): IdentityView | undefined;
  /** Reads key and identity from the vault; false when there is none. */
  load(): Promise<boolean>;
  /** Whether the vault now holds another key or identity than the one in use (another process enrolled). */
  changed(): Promise<boolean>;
  enroll(input: EnrollInput): Promise<EnrollOutcome>;
  /** Forgets key, identity and check set. */
  forget(): Promise<void>;
  /** A new client for the same identity: the network settings (proxy, server CA) changed. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

export interface IdentityDeps {
  db: Database;
  outbox: Outbox;
  vault: KeyVault;
  dataDir: string;
  log: Logger;
  now: () => Date;
  /** The API client for a server, under the current network settings (wire/network.ts). */
  client: (server: string) => ApiClient;
}

export function createIdentityHolder(deps: IdentityDeps): IdentityHolder {
  let identity: Identity | undefined;
  let stored: StoredIdentity | undefined;

  async function close(): Promise<void> {
    const closing = identity;
    identity = undefined;
    await closing?.client.close();
  }

  /** The vault's credentials; a damaged key file is said once in the log and means "no key". */
  async function read(): Promise<{ apiKey: string; identity?: StoredIdentity } | undefined> {
    try {
      return await deps.vault.load();
    } catch (error) {
      if (!(error instanceof DamagedKeyError)) throw error;
      deps.log.error(error.message);
      return undefined;
    }
  }

  return {
    current: () => identity,
    view() {
      if (identity === undefined || stored === undefined) return undefined;
      return {
        monitorId: stored.monitorId,
        server: stored.server,
        ...(stored.details === undefined ? {} : { details: stored.details }),
      };
    },
    async load() {
      const credentials = await read();
      stored =
        credentials === undefined
          ? undefined
          : (credentials.identity ?? (await migrateLegacyIdentity(deps.db, deps.vault, credentials.apiKey)));
      await close();
      deps.outbox.setOwner(stored?.monitorId);
      if (credentials === undefined || stored === undefined) return false;
      adoptIdentity(deps.db, stored);
      identity = {
        apiKey: credentials.apiKey,
        monitorId: stored.monitorId,
        server: stored.server,
        client: deps.client(stored.server),
      };
      return true;
    },
    async changed() {
      const credentials = await read().catch(() => undefined);
      return (
        credentials?.apiKey !== identity?.apiKey ||
        credentials?.identity?.monitorId !== identity?.monitorId ||
        credentials?.identity?.server !== identity?.server
      );
    },
    enroll: (input) =>
      enrollWith(input, {
        dataDir: deps.dataDir,
        vault: deps.vault,
        client: deps.client,
        now: deps.now,
      }),
    async forget() {
      await deps.vault.clear();
      await close();
      stored = undefined;
      deps.outbox.setOwner(undefined);
      disownStore(deps.db);
    },
    async reconnect() {
      const before = identity;
      if (before === undefined) return;
      identity = { ...before, client: deps.client(before.server) };
      await before.client.close();
    },
    close,
  };
}
