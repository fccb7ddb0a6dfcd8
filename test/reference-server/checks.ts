// Checks and their lifecycle. Every change takes a fresh stamp as updated_at, which is what the
// sync delta compares against `since`. Deleted checks are kept (flagged) so deltas can carry the
// deletion.
import type { DatabaseSync } from 'node:sqlite';
import { applyPatch, fieldsFromInput, fieldsFromJson, privateFieldNames } from './check-fields.ts';
import { flag, int, optionalText, text, type Row } from './db.ts';
import { randomGuid } from './ids.ts';
import { formatMicros, type Micros, type Stamper } from './timestamps.ts';
import type { CheckFields, CheckInput, CheckPatch, CheckRecord, WireCheck } from './types.ts';

export interface CheckStore {
  create(input: CheckInput): CheckRecord;
  update(guid: string, patch: CheckPatch): CheckRecord;
  remove(guid: string): CheckRecord;
  makePrivateDefinition(guid: string): CheckRecord;
  get(guid: string): CheckRecord | undefined;
  require(guid: string): CheckRecord;
  list(): CheckRecord[];
}

export function toCheckRecord(row: Row): CheckRecord {
  return {
    guid: text(row, 'guid'),
    orgId: optionalText(row, 'org_id') ?? null,
    deleted: flag(row, 'deleted'),
    privateDefinition: flag(row, 'private_definition'),
    updatedAt: formatMicros(int(row, 'updated_us')),
    definition: fieldsFromJson(text(row, 'definition')),
  };
}

/**
 * A check as the wire sends it to one monitor. `updatedUs` is that monitor's view (an
 * assignment change counts as a change, see deltas.ts); an unassigned check goes out once more
 * as disabled and deleted so the agent stops it.
 */
export function toWireCheck(check: CheckRecord, updatedUs: Micros, unassigned: boolean): WireCheck {
  const wire: WireCheck = {
    guid: check.guid,
    ...check.definition,
    enabled: check.definition.enabled && !unassigned,
    deleted: check.deleted || unassigned,
    updated_at: formatMicros(updatedUs),
  };
  if (check.privateDefinition) {
    wire.url = '';
    wire.match_string = '';
    delete wire.post_data;
    delete wire.headers;
  }
  return wire;
}

/** A patch value that would give a wiped field content again. */
const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

function wipe(fields: CheckFields): CheckFields {
  const { post_data: _post, headers: _headers, ...rest } = fields;
  return { ...rest, url: '', match_string: '' };
}

export function createCheckStore(db: DatabaseSync, stamper: Stamper): CheckStore {
  const byGuid = db.prepare('SELECT * FROM checks WHERE guid = ?');
  const all = db.prepare('SELECT * FROM checks ORDER BY updated_us, guid');
  const insert = db.prepare(
    `INSERT INTO checks (guid, org_id, deleted, private_definition, definition, updated_us)
     VALUES (?, ?, 0, 0, ?, ?)`,
  );
  const write = db.prepare(
    `UPDATE checks SET definition = ?, deleted = ?, private_definition = ?, updated_us = ?
     WHERE guid = ?`,
  );

  const get = (guid: string): CheckRecord | undefined => {
    const row = byGuid.get(guid);
    return row ? toCheckRecord(row) : undefined;
  };
  const require = (guid: string): CheckRecord => {
    const check = get(guid);
    if (!check) throw new Error(`no check with guid ${guid}`);
    return check;
  };
  const save = (check: CheckRecord, definition: CheckFields, deleted: boolean, privateDef: boolean) => {
    write.run(JSON.stringify(definition), deleted ? 1 : 0, privateDef ? 1 : 0, stamper.next(), check.guid);
    return require(check.guid);
  };
  const live = (guid: string): CheckRecord => {
    const check = require(guid);
    if (check.deleted) throw new Error(`check ${guid} is deleted and cannot change again`);
    return check;
  };

  return {
    create(input) {
      const guid = input.guid ?? randomGuid();
      if (guid === '') throw new Error('createCheck: guid must not be empty');
      if (get(guid)) throw new Error(`createCheck: a check with guid ${guid} already exists`);
      insert.run(guid, input.orgId ?? null, JSON.stringify(fieldsFromInput(input)), stamper.next());
      return require(guid);
    },
    update(guid, patch) {
      const check = live(guid);
      if (check.privateDefinition) {
        const touched = privateFieldNames.filter((name) => isSet(patch[name]));
        if (touched.length > 0) {
          throw new Error(`updateCheck: ${guid} has a private definition; ${touched.join(', ')} cannot be set`);
        }
      }
      return save(check, applyPatch(check.definition, patch), false, check.privateDefinition);
    },
    remove(guid) {
      const check = live(guid);
      return save(check, check.definition, true, check.privateDefinition);
    },
    makePrivateDefinition(guid) {
      const check = live(guid);
      return save(check, wipe(check.definition), false, true);
    },
    get,
    require,
    list: () => all.all().map(toCheckRecord),
  };
}
