// Who this agent is to the server: the monitor id, the server and the API key, with the client
// that speaks for it. Enroll and reclaim make one, forget drops it (the unsent results stay, so
// that a reclaim of the same monitor delivers them).
import { enroll as enrollWith, readEnrollment, type EnrollInput, type EnrollOutcome, type EnrollmentDetails } from './enrollment.ts';
import type { KeyVault } from './key-vault.ts';
import type { Identity } from './service-calls.ts';
import { clearChecks } from './store/checks.ts';
import type { Database } from './store/database.ts';
import { deleteMeta } from './store/meta.ts';
import type { ApiClient } from './wire/api-client.ts';
import type { ApiError } from './wire/api-error.ts';

/** A call that could not be made or failed (not enrolled, network, refused...). */
export type CallFailure = { ok: false; error: ApiError };

/** What the UI and the CLI may show of the identity: never the key. */
export interface IdentityView {
  monitorId: string;
  server: string;
  details?: EnrollmentDetails;
}

export interface IdentityHolder {
  current(): Identity | undefined;
  view(): IdentityView | undefined;
  /** Reads the identity from the store and the key from the vault; false when there is none. */
  load(): Promise<boolean>;
  enroll(input: EnrollInput): Promise<EnrollOutcome>;
  /** Forgets key, identity and check set. */
  forget(): Promise<void>;
  /** A new client for the same identity: the network settings (proxy, server CA) changed. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

export interface IdentityDeps {
  db: Database;
  vault: KeyVault;
  now: () => Date;
  /** The API client for a server, under the current network settings (wire/network.ts). */
  client: (server: string) => ApiClient;
}

export function createIdentityHolder(deps: IdentityDeps): IdentityHolder {
  let identity: Identity | undefined;

  async function close(): Promise<void> {
    const closing = identity;
    identity = undefined;
    await closing?.client.close();
  }

  return {
    current: () => identity,
    view() {
      if (identity === undefined) return undefined;
      const details = readEnrollment(deps.db)?.details;
      return { monitorId: identity.monitorId, server: identity.server, ...(details === undefined ? {} : { details }) };
    },
    async load() {
      const enrollment = readEnrollment(deps.db);
      const apiKey = await deps.vault.load();
      await close();
      if (enrollment === undefined || apiKey === undefined) return false;
      identity = {
        apiKey,
        monitorId: enrollment.monitorId,
        server: enrollment.server,
        client: deps.client(enrollment.server),
      };
      return true;
    },
    enroll: (input) =>
      enrollWith(input, {
        db: deps.db,
        vault: deps.vault,
        client: deps.client,
        now: deps.now,
      }),
    async forget() {
      await deps.vault.clear();
      await close();
      for (const key of ['monitor_id', 'server_url', 'enrollment', 'sync_cursor', 'last_sync_at'] as const) deleteMeta(deps.db, key);
      clearChecks(deps.db);
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
