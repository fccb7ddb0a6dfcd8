// The store's journal (WAL) written to disk in the background as it grows (issue 26): commits on a
// real file store start an fdatasync of the journal on the thread pool once it has grown by the
// threshold since the last one, and never below it; a journal cut back or gone is no error; the
// store's data is whole afterwards. The time it saves a checkpoint is bench:history's to print.
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalFlushOf, openDatabase, transaction } from '../../../src-main/agent/store/database.ts';
import { createJournalFlush, journalFlushDefaults } from '../../../src-main/agent/store/journal-flush.ts';

const tempFile = (name: string): string => join(mkdtempSync(join(tmpdir(), 'journal-flush-')), name);
const kib = (n: number): Buffer => Buffer.alloc(n * 1024, 7);

describe('the journal written to disk in the background', () => {
  it('a file store starts a flush once its commits have grown the journal by the threshold, not before', async () => {
    const file = tempFile('agent.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO blobs (body) VALUES (?)');
    const flush = journalFlushOf(db);
    if (flush === undefined) throw new Error('a file store has a journal flush');

    // A few small commits: the journal holds far less than the threshold.
    for (let i = 0; i < 5; i++) transaction(db, () => insert.run(kib(4)));
    expect(flush.counts().started).toBe(0);

    // Commits of 64 KiB each, one at a time as the result sink makes them.
    const commits = Math.ceil((journalFlushDefaults.everyBytes * 1.5) / kib(64).length);
    for (let i = 0; i < commits; i++) {
      transaction(db, () => insert.run(kib(64)));
      await flush.idle();
    }
    const { started, finished } = flush.counts();
    expect(started).toBeGreaterThanOrEqual(1);
    // One flush per threshold's worth of growth, not one per commit.
    expect(started).toBeLessThan(commits / 4);
    expect(finished).toBe(started);

    db.close();
    const again = openDatabase(file);
    expect((again.prepare('SELECT COUNT(*) AS n FROM blobs').get() as { n: number }).n).toBe(5 + commits);
    again.close();
  });

  it('a store in memory has none', () => {
    const db = openDatabase(':memory:');
    expect(journalFlushOf(db)).toBeUndefined();
    db.close();
  });

  it('counts growth again from where SQLite cut the journal back', async () => {
    const journal = tempFile('agent.db-wal');
    writeFileSync(journal, kib(100));
    const flush = createJournalFlush(journal, 64 * 1024);
    flush.committed();
    await flush.idle();
    expect(flush.counts()).toEqual({ started: 1, finished: 1 });

    // Cut back to 8 KiB after a checkpoint (journal_size_limit), then 40 KiB appended: the file is
    // smaller than at the last flush, and SQLite writes a restarted journal from its start, so all
    // 48 KiB are new; 30 KiB more make 78, past the threshold.
    truncateSync(journal, 8 * 1024);
    appendFileSync(journal, kib(40));
    flush.committed();
    expect(flush.counts().started).toBe(1);
    appendFileSync(journal, kib(30));
    flush.committed();
    await flush.idle();
    expect(flush.counts()).toEqual({ started: 2, finished: 2 });
  });

  it('a journal that is gone is no error: nothing starts, a flush under way ends, and one that failed is not tried again at once', async () => {
    const journal = tempFile('agent.db-wal');
    const flush = createJournalFlush(journal, 1024);
    flush.committed();
    expect(flush.counts().started).toBe(0);

    writeFileSync(journal, kib(8));
    flush.committed();
    // A clean close removes the journal, here while the flush opens it.
    rmSync(journal);
    await flush.idle();
    expect(flush.counts()).toEqual({ started: 1, finished: 1 });
    flush.committed();
    expect(flush.counts().started).toBe(1);

    // The same size again: the failed flush counts as tried, so the next commit does not retry it
    // (a disk that keeps failing would otherwise cost a try on every commit).
    writeFileSync(journal, kib(8));
    flush.committed();
    expect(flush.counts().started).toBe(1);
    appendFileSync(journal, kib(2));
    flush.committed();
    await flush.idle();
    expect(flush.counts()).toEqual({ started: 2, finished: 2 });
  });
});
