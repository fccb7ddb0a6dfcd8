// Notices changes to one file. Editors save by writing a temporary file and renaming it over the
// original, which replaces the inode a file watch would hold; so the parent folder is watched and
// its events are filtered to the file's name (and, for a symlink, to its target's name in the
// target's folder). fs.watch misses events on some filesystems (network shares, some containers),
// so a slow poll compares the file's signature as a fallback. Bursts of events are debounced.
import { watch, type FSWatcher } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Logger } from '../../base/log.ts';

export interface FileWatchOptions {
  file: string;
  debounceMs: number;
  pollMs: number;
  log: Logger;
  /** Called once a burst of events has been quiet for debounceMs. */
  onSettled: () => void;
  /** Whether the file changed since it was last read; asked every pollMs. */
  changedSinceRead: () => Promise<boolean>;
}

export interface FileWatch {
  close(): void;
}

export function watchFile(options: FileWatchOptions): FileWatch {
  const { file, log } = options;
  const folders = new Map<string, { watcher: FSWatcher; names: Set<string> }>();
  let debounce: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const trigger = () => {
    if (closed) return;
    clearTimeout(debounce);
    debounce = setTimeout(options.onSettled, options.debounceMs).unref();
  };

  /** Watches exactly the folders of `paths`; a folder that does not exist yet is tried again later. */
  const watchFolders = (paths: readonly string[]) => {
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
        // Not persistent: watching must never be what keeps the process alive.
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          // Some platforms do not say which file changed: then read it, to be safe.
          if (name === null || folders.get(folder)?.names.has(name) === true) trigger();
        });
        watcher.on('error', (error) => {
          log.warn(
            { folder, err: error.message },
            'watching the private definitions folder failed; changes are still noticed by polling',
          );
          watcher.close();
          folders.delete(folder);
        });
        folders.set(folder, { watcher, names });
      } catch {
        // The folder does not exist (yet): the poll notices the file and retries the watch.
      }
    }
  };

  const targets = async (): Promise<string[]> => {
    const real = await realpath(file).catch(() => file);
    return real === file ? [file] : [file, real];
  };

  const poll = async () => {
    try {
      const paths = await targets();
      if (closed) return;
      watchFolders(paths);
      if (await options.changedSinceRead()) trigger();
    } catch (error) {
      log.warn(
        { file, err: String(error) },
        'checking the private definitions file for changes failed; trying again at the next poll',
      );
    }
    if (!closed) pollTimer = setTimeout(() => void poll(), options.pollMs).unref();
  };

  watchFolders([file]);
  void targets().then((paths) => {
    if (!closed) watchFolders(paths);
  });
  pollTimer = setTimeout(() => void poll(), options.pollMs).unref();

  return {
    close() {
      closed = true;
      clearTimeout(debounce);
      clearTimeout(pollTimer);
      for (const { watcher } of folders.values()) watcher.close();
      folders.clear();
    },
  };
}
