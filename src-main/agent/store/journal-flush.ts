const { close, fdatasync, open, statSync } = process.getBuiltinModule('node:fs');
// Writes the store's journal (the WAL file) to disk in the background while it grows, so that a
// checkpoint finds it already written (issue 26). A checkpoint runs inside the commit that crosses
// its mark (database.ts checkpointPages) and first fsyncs the journal: everything appended since
// the last checkpoint, up to ~16 MB at the mark, that the kernel has not written back yet. On the
// build machine that fsync was 27-30 ms of a 50-80 ms checkpoint (strace), the main thread held
// throughout, and at 4,100 runs a second a checkpoint came every 6-8 s, each running a few hundred
// runs late. Here, once the journal has grown by `everyBytes` since the last flush, an fdatasync
// of it runs on libuv's thread pool (no JavaScript, no V8 heap) while the event loop goes on; the
// checkpoint's own fsync then has at most that much left, ~2 ms. bench:history's slowest commit
// went from 60-78 to 36-38 ms, its slowest move step from 63-101 to 40-60 ms. What is left of a
// checkpoint is copying the pages into the store and its fsync of the store file.
// SQLite still makes every fsync it makes without this, so what is durable when is unchanged:
// this only does some of the same writing earlier, off the main thread. A flush that fails (the
// journal removed by a clean close, an I/O error) is dropped: SQLite's own fsync comes anyway and
// is the one that reports.

export const journalFlushDefaults = {
  /**
   * Journal growth that starts a flush: 1 MiB, ~256 pages. At 4,100 runs a second the journal
   * grows ~2.4 MB a second, so ~2 flushes a second of a few ms each on the thread pool; at rest
   * (20 checks a minute) one every few minutes, so no added wake-ups to speak of. A flush holds
   * one of the pool's four threads for a few ms (the probes' DNS lookups share them).
   */
  everyBytes: 1024 * 1024,
};

export interface JournalFlush {
  /** After each commit: starts a flush if the journal grew enough since the last one began. */
  committed(): void;
  /** Flushes started and finished so far (tests, benches). */
  counts(): { started: number; finished: number };
  /** Resolves once no flush is under way (tests, benches). */
  idle(): Promise<void>;
}

export function createJournalFlush(journalFile: string, everyBytes = journalFlushDefaults.everyBytes): JournalFlush {
  /** The journal's size when the last flush began: on disk once it ends (or tried, and dropped). */
  let flushedSize = 0;
  let inFlight = false;
  let started = 0;
  let finished = 0;
  let waiters: (() => void)[] = [];

  /**
   * Ends a flush, written or not: a failed one is not tried again before the journal has grown by
   * another `everyBytes`, so a disk that keeps failing costs a try per MiB, not one per commit.
   */
  function done(fd: number | undefined, size: number): void {
    flushedSize = Math.max(flushedSize, size);
    const settle = (): void => {
      inFlight = false;
      finished++;
      const wake = waiters;
      waiters = [];
      for (const resolve of wake) resolve();
    };
    if (fd === undefined) settle();
    else close(fd, settle);
  }

  return {
    committed() {
      if (inFlight) return;
      let size: number;
      try {
        size = statSync(journalFile).size;
      } catch {
        return; // No journal (yet, or any more): nothing to write.
      }
      // Smaller than at the last flush: SQLite cut it back after a checkpoint (journal_size_limit)
      // and writes the restarted journal from its start, so all of it is new.
      if (size < flushedSize) flushedSize = 0;
      if (size - flushedSize < everyBytes) return;
      inFlight = true;
      started++;
      // A read-only descriptor: fdatasync writes the file's pages whoever wrote them.
      open(journalFile, 'r', (openError, fd) => {
        if (openError !== null) done(undefined, size);
        else fdatasync(fd, () => done(fd, size));
      });
    },
    counts: () => ({ started, finished }),
    idle: () => (inFlight ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve()),
  };
}
