// Organisations: the owners of private monitors, org enrollment tokens and checks.
import type { DatabaseSync } from 'node:sqlite';
import { flag, text, type Row } from './db.ts';
import { randomRecordId } from './ids.ts';
import type { Organization } from './types.ts';

export interface OrganizationStore {
  create(name: string, options?: { autoAssign?: boolean }): Organization;
  get(id: string): Organization | undefined;
  /** Like get, but a missing organisation is a programming error in the caller. */
  require(id: string): Organization;
  list(): Organization[];
}

function toOrganization(row: Row): Organization {
  return {
    id: text(row, 'id'),
    name: text(row, 'name'),
    autoAssign: flag(row, 'auto_assign'),
    createdAt: text(row, 'created_at'),
  };
}

export function createOrganizationStore(db: DatabaseSync, now: () => Date): OrganizationStore {
  const insert = db.prepare('INSERT INTO organizations (id, name, auto_assign, created_at) VALUES (?, ?, ?, ?)');
  const byId = db.prepare('SELECT * FROM organizations WHERE id = ?');
  const all = db.prepare('SELECT * FROM organizations ORDER BY created_at, id');
  const get = (id: string): Organization | undefined => {
    const row = byId.get(id);
    return row ? toOrganization(row) : undefined;
  };
  return {
    create(name, options = {}) {
      const id = randomRecordId('org');
      insert.run(id, name, options.autoAssign === true ? 1 : 0, now().toISOString());
      return this.require(id);
    },
    get,
    require(id) {
      const org = get(id);
      if (!org) throw new Error(`no organisation with id ${id}`);
      return org;
    },
    list: () => all.all().map(toOrganization),
  };
}
