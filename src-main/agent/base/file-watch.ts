// Notices changes to one file: the private definitions file and the key file both use it.
// Editors and `enroll` save by writing a temporary file and renaming it over the original, which
// replaces the inode a file watch would hold; so the parent folder is watched and its events are
// filtered to the file's name (and, for a symlink, to its target's name in the target's folder).
// fs.watch misses events on some file systems (network shares, some containers), so a slow poll
// asks the same question as a fallback. A burst of events (one save is several) settles first,
// and the caller's `changed` decides whether anything changed, so one change is reported once
// however many events and polls see it.
import type { FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { clockFrom, untilNextTick, type Clock, type TimerHandle } from './clock.ts';
import type { Logger } from './log.ts';
const { realpathSync, watch } = process.getBuiltinModule('node:fs');

export interface FileWatchOptions {
  file: string;
  /** Events closer together than this are one change. */
  settleMs: number;
  /** The poll behind the watch. */
  pollMs: number;
  /** Whether the file changed since the caller last saw it; asked once events settle and at every poll. */
  changed: () => boolean | Promise<boolean>;
  onChange: () => void;
  /** Timers; by default the system's, never keeping the process alive. */
  clock?: Clock;
  /** Where a failed watch or poll is told (the watch carries on by polling), naming `what`. */
  log?: Logger;
  /** The file in the log's words, e.g. "the private definitions file". */
  what?: string;
}

export interface FileWatch {
  close(): void;
}

/** System timers that do not keep the process alive: watching must never be what does. */
const backgroundClock: Clock = clockFrom<ReturnType<typeof setTimeout>>({
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fn, delayMs) => setTimeout(fn, delayMs).unref(),
  clearTimeout: (handle) => clearTimeout(handle),
});

export function watchFile(options: FileWatchOptions): FileWatch {
  const { file, log } = options;
  const clock = options.clock ?? backgroundClock;
  const what = options.what ?? 'the file';
  const folders = new Map<string, { watcher: FSWatcher; names: Set<string> }>();
  let settle: TimerHandle | undefined;
  let pollTimer: TimerHandle | undefined;
  let closed = false;
  const isOpen = (): boolean => !closed;

  const report = async (): Promise<void> => {
    if (closed) return;
    const changed = await options.changed();
    // close() may have run while the question was being answered.
    if (changed && isOpen()) options.onChange();
  };
  const failed = (error: unknown): void =>
    log?.warn({ file, err: String(error) }, `checking ${what} for changes failed; trying again at the next poll`);

  const soon = (): void => {
    if (closed) return;
    settle ??= clock.setTimer(options.settleMs, () => {
      settle = undefined;
      report().catch(failed);
    });
  };

  // A temporary file beside it ("api-key.tmp-…") is the start of a save by rename.
  const concerns = (names: Set<string>, name: string): boolean =>
    [...names].some((n) => name === n || name.startsWith(`${n}.`));

  /** Watches exactly the folders of `paths`; a folder that does not exist yet is tried again later. */
  const watchFolders = (paths: readonly string[]): void => {
    const wanted = new Map<string, Set<string>>();
    for (const path of paths) wanted.set(dirname(path), (wanted.get(dirname(path)) ?? new Set()).add(basename(path)));
    for (const [folder, entry] of folders) {
      if (wanted.has(folder)) continue;
      entry.watcher.close();
      folders.delete(folder);
    }
    for (const [folder, names] of wanted) {
      const existing = folders.get(folder);
      if (existing !== undefined) {
        existing.names = names;
        continue;
      }
      try {
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          // Some platforms do not say which file changed: then look, to be safe.
          const entry = folders.get(folder);
          if (name === null || (entry !== undefined && concerns(entry.names, name))) soon();
        });
        watcher.on('error', (error) => {
          log?.warn({ folder, err: error.message }, `watching ${what} failed; changes are still noticed by polling`);
          watcher.close();
          folders.delete(folder);
        });
        folders.set(folder, { watcher, names });
      } catch {
        // The folder does not exist (yet): the poll notices the file and retries the watch.
      }
    }
  };

  // Synchronous, like the `changed` question each poll asks: a call on the thread pool would wake
  // a pool thread and then this one again at every poll of an agent at rest (issue 26).
  const targets = (): string[] => {
    let real = file;
    try {
      real = realpathSync(file);
    } catch {
      // Missing (not created yet, or being replaced): the file's own folder is watched.
    }
    return real === file ? [file] : [file, real];
  };

  // The question first, then the folders again (a symlink may point elsewhere now, a missing
  // folder may exist now): the next poll is due pollMs after this one, whatever the disk does.
  const poll = async (): Promise<void> => {
    try {
      if (await options.changed()) soon();
    } catch (error) {
      failed(error);
    }
    if (closed) return;
    pollTimer = clock.setTimer(untilNextTick(clock, options.pollMs), () => void poll());
    watchFolders(targets());
  };

  watchFolders(targets());
  // On the shared grid (clock.ts untilNextTick): polls wake the process with the other periodic tasks.
  pollTimer = clock.setTimer(untilNextTick(clock, options.pollMs), () => void poll());

  return {
    close() {
      closed = true;
      settle?.cancel();
      pollTimer?.cancel();
      for (const { watcher } of folders.values()) watcher.close();
      folders.clear();
    },
  };
}
