// `uptime-agent enroll` (a new monitor, or --reclaim) run while `run` is going writes the key
// file; the running agent must pick the new key and identity up within seconds, not keep sending
// the old key until a restart. The watching itself is base/file-watch.ts (shared with the private
// definitions file); what is the key file's own is what counts as a change.
import type { Clock } from '../base/clock.ts';
import { watchFile, type FileWatch } from '../base/file-watch.ts';
const { statSync } = process.getBuiltinModule('node:fs');

export type IdentityWatch = FileWatch;

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
  let seen = last;
  return watchFile({
    file,
    ...options,
    changed: () => {
      seen = signature(file);
      return seen !== last;
    },
    onChange: () => {
      last = seen;
      onChange();
    },
  });
}
