// `uptime-agent enroll` (a new monitor, or --reclaim) run while `run` is going writes the key
// file; the running agent must pick the new key and identity up within seconds, not keep sending
// the old key until a restart. The folder is watched (the file is replaced by a rename, so its
// own watch would die with the old inode), with a slow stat poll behind it for file systems
// that do not report changes.
import { watch, statSync, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Clock, TimerHandle } from '../base/clock.ts';

export interface IdentityWatch {
  close(): void;
}

export interface IdentityWatchOptions {
  clock: Clock;
  /** Changes closer together than this are one change (a write is several events). */
  settleMs: number;
  /** The poll behind the watch. */
  pollMs: number;
}

/** What identifies one version of the file: a rename gives a new inode, a rewrite a new mtime. */
function signature(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return 'absent';
  }
}

export function watchIdentityFile(file: string, onChange: () => void, options: IdentityWatchOptions): IdentityWatch {
  let last = signature(file);
  let settle: TimerHandle | undefined;
  let poll: TimerHandle | undefined;
  let closed = false;

  const check = (): void => {
    settle = undefined;
    const now = signature(file);
    if (now === last || closed) return;
    last = now;
    onChange();
  };
  const soon = (): void => {
    settle ??= options.clock.setTimer(options.settleMs, check);
  };
  const schedulePoll = (): void => {
    poll = options.clock.setTimer(options.pollMs, () => {
      check();
      if (!closed) schedulePoll();
    });
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, name) => {
      if (name === null || name === basename(file) || name.startsWith(`${basename(file)}.`)) soon();
    });
    watcher.on('error', () => undefined);
  } catch {
    watcher = undefined; // the poll still sees it
  }
  schedulePoll();

  return {
    close() {
      closed = true;
      watcher?.close();
      settle?.cancel();
      poll?.cancel();
    },
  };
}
