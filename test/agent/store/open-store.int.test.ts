// A damaged store is set aside (kept, renamed with a time), its readable unsent results move into a
// fresh store, and the agent goes on; a read-only store is a clear error.
import { existsSync, openSync, readdirSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirError } from '../../../src-main/agent/base/data-dir.ts';
import { openDatabase, transaction } from '../../../src-main/agent/store/database.ts';
import { createHistory } from '../../../src-main/agent/store/history.ts';
import { setMeta, getMeta } from '../../../src-main/agent/store/meta.ts';
import { openStore } from '../../../src-main/agent/store/open-store.ts';
import { createOutbox } from '../../../src-main/agent/store/outbox.ts';
import type { WireResult } from '../../../src-main/agent/wire/schemas.ts';
import { tempDataDir } from '../../support/cli.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason, type SmallDisk } from '../../support/tmpfs.ts';

const now = new Date('2026-11-22T01:02:03.456Z');
const result = (i: number): WireResult => ({
  check_guid: `g${i % 4}`,
  monitor_id: 'abcdefghjkmn',
  ran_at: new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + i * 1000).toISOString(),
  success: true,
  http_status: 200,
  latency_ms: 4,
});

/** A store with 200 unsent results in its first pages and a lot of history after them. */
function buildStore(file: string, historyRows = 3000): void {
  const db = openDatabase(file);
  const outbox = createOutbox(db, { maxCount: 10_000, maxBytes: 1 << 30 });
  const history = createHistory(db, 300);
  transaction(db, () => {
    outbox.insert(Array.from({ length: 200 }, (_, i) => result(i)));
    setMeta(db, 'dropped_results', '7');
  });
  transaction(db, () =>
    history.insert(
      Array.from({ length: historyRows }, (_, i) => ({
        check_guid: `h${i % 10}`,
        ran_at: result(i).ran_at,
        success: true,
        skipped: false,
        http_status: 200,
        latency_ms: 4,
        error: 'x'.repeat(200),
      })),
    ),
  );
  db.close();
}

function scribble(file: string, fromEnd: number, bytes: number): void {
  const fd = openSync(file, 'r+');
  const size = statSync(file).size;
  writeSync(fd, Buffer.alloc(bytes, 0xa5), 0, bytes, size - fromEnd);
  closeSync(fd);
}

describe('opening a damaged store', () => {
  it('sets a store whose later pages are garbage aside, copies its 200 unsent results, and opens a fresh one', async () => {
    const dir = await tempDataDir();
    const file = join(dir, 'agent.db');
    buildStore(file);
    scribble(file, 64 * 1024, 32 * 1024);
    const opened = openStore(file, now);
    expect(opened.setAside).toMatchObject({ file: `${file}.damaged-2026-11-22T01-02-03-456Z`, recovered: 200 });
    expect(existsSync(opened.setAside?.file ?? '')).toBe(true);
    const outbox = createOutbox(opened.db, { maxCount: 10_000, maxBytes: 1 << 30 });
    expect(outbox.count()).toBe(200);
    expect(outbox.peek(1, 1 << 20)[0]?.ran_at).toBe(result(0).ran_at);
    expect(getMeta(opened.db, 'dropped_results')).toBe('7');
    opened.db.close();
    // The next start finds a healthy store and leaves it alone.
    const again = openStore(file, now);
    expect(again.setAside).toBeUndefined();
    again.db.close();
  });

  it('sets a file that is not a database at all aside and starts empty', async () => {
    const dir = await tempDataDir();
    const file = join(dir, 'agent.db');
    writeFileSync(file, Buffer.alloc(20_000, 0x5a));
    const opened = openStore(file, now);
    expect(opened.setAside).toMatchObject({ recovered: 0 });
    expect(opened.setAside?.reason).toContain('not a database');
    expect(readdirSync(dir).sort()).toEqual([
      'agent.db',
      'agent.db-shm',
      'agent.db-wal',
      'agent.db.damaged-2026-11-22T01-02-03-456Z',
    ]);
    opened.db.close();
  });
});

describe.skipIf(!canMountTmpfs)(`a read-only store (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`, () => {
  let disk: SmallDisk;
  beforeAll(() => (disk = mountSmallDisk(1024)));
  afterAll(() => disk.unmount());

  it('is a clear error, and nothing is set aside', () => {
    buildStore(join(disk.dir, 'agent.db'), 10);
    disk.readOnly(true);
    try {
      expect(() => openStore(join(disk.dir, 'agent.db'), now)).toThrow(DataDirError);
      expect(() => openStore(join(disk.dir, 'agent.db'), now)).toThrow(/is read-only; make it and its folder writable/);
      expect(readdirSync(disk.dir).filter((n) => n.includes('damaged'))).toEqual([]);
    } finally {
      disk.readOnly(false);
    }
  });
});
