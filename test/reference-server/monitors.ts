// Monitors: private ones belong to an organisation, shared ones (org_id NULL) to the fleet.
// The API key is kept only as a hash; "not enrolled" means the key was reset away and the
// monitor waits to be reclaimed with a new key.
import type { DatabaseSync } from 'node:sqlite';
import { flag, optionalText, text, type Row } from './db.ts';
import { randomMonitorId, randomSecret, sha256Hex } from './ids.ts';
import type { MonitorRecord } from './types.ts';

export interface MonitorProfile {
  name: string;
  region: string;
  country: string;
  city: string;
}

export interface EnrolledMonitor {
  monitor: MonitorRecord;
  apiKey: string;
}

export type ReclaimOutcome = EnrolledMonitor | 'not-found' | 'still-enrolled';

export interface MonitorStore {
  /** orgId null = shared fleet. */
  enroll(orgId: string | null, profile: MonitorProfile, tokenId: string | null): EnrolledMonitor;
  /** Reclaims a monitor of the same organisation (or the fleet, for orgId null). */
  reclaim(id: string, orgId: string | null, profile: MonitorProfile, tokenId: string | null): ReclaimOutcome;
  findByKey(apiKey: string): MonitorRecord | undefined;
  touch(id: string): void;
  resetEnrollment(id: string): void;
  resetKey(id: string): string;
  setDisabled(id: string, disabled: boolean): void;
  get(id: string): MonitorRecord | undefined;
  require(id: string): MonitorRecord;
  list(): MonitorRecord[];
}

function toMonitor(row: Row): MonitorRecord {
  const orgId = optionalText(row, 'org_id') ?? null;
  return {
    id: text(row, 'id'),
    orgId,
    shared: orgId === null,
    name: text(row, 'name'),
    region: text(row, 'region'),
    country: text(row, 'country'),
    city: text(row, 'city'),
    enrolled: flag(row, 'enrolled'),
    disabled: flag(row, 'disabled'),
    tokenId: optionalText(row, 'token_id') ?? null,
    enrolledAt: text(row, 'enrolled_at'),
    lastSeenAt: optionalText(row, 'last_seen_at') ?? null,
  };
}

const newApiKey = (): { apiKey: string; hash: string } => {
  const apiKey = randomSecret('uak_');
  return { apiKey, hash: sha256Hex(apiKey) };
};

export function createMonitorStore(db: DatabaseSync, now: () => Date): MonitorStore {
  const byId = db.prepare('SELECT * FROM monitors WHERE id = ?');
  const byKey = db.prepare('SELECT * FROM monitors WHERE key_hash = ?');
  const all = db.prepare('SELECT * FROM monitors ORDER BY enrolled_at, id');
  const insert = db.prepare(
    `INSERT INTO monitors (id, org_id, name, region, country, city, key_hash, enrolled, disabled,
       token_id, enrolled_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?)`,
  );
  const reenroll = db.prepare(
    `UPDATE monitors SET name = ?, region = ?, country = ?, city = ?, key_hash = ?, enrolled = 1,
       token_id = ?, enrolled_at = ? WHERE id = ?`,
  );
  const touch = db.prepare('UPDATE monitors SET last_seen_at = ? WHERE id = ?');
  const unenroll = db.prepare('UPDATE monitors SET key_hash = NULL, enrolled = 0 WHERE id = ?');
  const setKey = db.prepare('UPDATE monitors SET key_hash = ? WHERE id = ?');
  const setDisabled = db.prepare('UPDATE monitors SET disabled = ? WHERE id = ?');

  const get = (id: string): MonitorRecord | undefined => {
    const row = byId.get(id);
    return row ? toMonitor(row) : undefined;
  };
  const require = (id: string): MonitorRecord => {
    const monitor = get(id);
    if (!monitor) throw new Error(`no monitor with id ${id}`);
    return monitor;
  };

  return {
    enroll(orgId, profile, tokenId) {
      // 60 random bits make a collision unlikely, not impossible: the id must be globally unique.
      let id = randomMonitorId();
      while (byId.get(id)) id = randomMonitorId();
      const { apiKey, hash } = newApiKey();
      insert.run(
        id,
        orgId,
        profile.name,
        profile.region,
        profile.country,
        profile.city,
        hash,
        tokenId,
        now().toISOString(),
      );
      return { monitor: require(id), apiKey };
    },
    reclaim(id, orgId, profile, tokenId) {
      const existing = get(id);
      if (!existing || existing.orgId !== orgId) return 'not-found';
      if (existing.enrolled) return 'still-enrolled';
      const { apiKey, hash } = newApiKey();
      reenroll.run(profile.name, profile.region, profile.country, profile.city, hash, tokenId, now().toISOString(), id);
      return { monitor: require(id), apiKey };
    },
    findByKey(apiKey) {
      const row = byKey.get(sha256Hex(apiKey));
      return row ? toMonitor(row) : undefined;
    },
    touch: (id) => void touch.run(now().toISOString(), id),
    resetEnrollment(id) {
      require(id);
      unenroll.run(id);
    },
    resetKey(id) {
      if (!require(id).enrolled) throw new Error(`monitor ${id} is not enrolled: reclaim it instead`);
      const { apiKey, hash } = newApiKey();
      setKey.run(hash, id);
      return apiKey;
    },
    setDisabled(id, disabled) {
      require(id);
      setDisabled.run(disabled ? 1 : 0, id);
    },
    get,
    require,
    list: () => all.all().map(toMonitor),
  };
}
