// Enrollment tokens. An org token enrolls private monitors into its organisation until revoked;
// a platform token enrolls shared-fleet monitors and expires one hour after minting. A token
// that is unknown, revoked or expired is simply "not found": the caller cannot tell which.
import type { DatabaseSync } from 'node:sqlite';
import { optionalInt, optionalText, text, type Row } from './db.ts';
import { randomRecordId, randomSecret, sha256Hex } from './ids.ts';
import { dateToMicros } from './timestamps.ts';
import type { EnrollmentToken, MintedToken } from './types.ts';

/** wire-api.md Limits: platform enrollment token lifetime. */
export const platformTokenLifetimeMs = 60 * 60 * 1000;

export interface TokenStore {
  mintOrgToken(orgId: string, label?: string): MintedToken;
  mintPlatformToken(label?: string): MintedToken;
  revoke(tokenId: string): void;
  /** The live token with this secret, or undefined if unknown, revoked or expired. */
  findUsable(secret: string): EnrollmentToken | undefined;
  list(): EnrollmentToken[];
}

function toToken(row: Row): EnrollmentToken {
  const expiresUs = optionalInt(row, 'expires_us');
  return {
    id: text(row, 'id'),
    kind: text(row, 'kind') === 'platform' ? 'platform' : 'org',
    orgId: optionalText(row, 'org_id') ?? null,
    label: optionalText(row, 'label') ?? null,
    createdAt: text(row, 'created_at'),
    expiresAt: expiresUs === undefined ? null : new Date(expiresUs / 1000).toISOString(),
    revoked: optionalText(row, 'revoked_at') !== undefined,
  };
}

export function createTokenStore(db: DatabaseSync, now: () => Date): TokenStore {
  const insert = db.prepare(
    'INSERT INTO tokens (id, hash, kind, org_id, label, created_at, expires_us) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const byId = db.prepare('SELECT * FROM tokens WHERE id = ?');
  const byHash = db.prepare('SELECT * FROM tokens WHERE hash = ?');
  const revoke = db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const all = db.prepare('SELECT * FROM tokens ORDER BY created_at, id');

  const mint = (kind: 'org' | 'platform', orgId: string | null, label: string | undefined): MintedToken => {
    const id = randomRecordId('tok');
    const token = randomSecret(kind === 'org' ? 'uet_' : 'upt_');
    const minted = now();
    const expiresUs = kind === 'platform' ? dateToMicros(minted) + platformTokenLifetimeMs * 1000 : null;
    insert.run(id, sha256Hex(token), kind, orgId, label ?? null, minted.toISOString(), expiresUs);
    const row = byId.get(id);
    if (!row) throw new Error(`token ${id} vanished after insert`);
    return { ...toToken(row), token };
  };

  return {
    mintOrgToken: (orgId, label) => mint('org', orgId, label),
    mintPlatformToken: (label) => mint('platform', null, label),
    revoke(tokenId) {
      if (!byId.get(tokenId)) throw new Error(`no enrollment token with id ${tokenId}`);
      revoke.run(now().toISOString(), tokenId);
    },
    findUsable(secret) {
      const row = byHash.get(sha256Hex(secret));
      if (!row || optionalText(row, 'revoked_at') !== undefined) return undefined;
      const expiresUs = optionalInt(row, 'expires_us');
      if (expiresUs !== undefined && dateToMicros(now()) >= expiresUs) return undefined;
      return toToken(row);
    },
    list: () => all.all().map(toToken),
  };
}
