// A small tmpfs as a data folder, for the full-disk cases: the disk really fills up, and freeing
// space really frees it. Mounting needs root; tests skip with this reason otherwise.
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const canMountTmpfs = process.platform === 'linux' && process.getuid?.() === 0;
export const tmpfsSkipReason = 'needs root on Linux to mount a small tmpfs as a full disk';

export interface SmallDisk {
  dir: string;
  /** Fills the disk to the last byte with a filler file. */
  fill(): void;
  /** Gives back bytes of the filler (all of it when omitted). */
  free(bytes?: number): void;
  /** Mounts it read-only (or back read-write). */
  readOnly(on: boolean): void;
  unmount(): void;
}

export function mountSmallDisk(sizeKiB: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'uptime-agent-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0755`, 'tmpfs', dir]);
  const filler = join(dir, '.filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(4096, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free(bytes) {
      const size = statSync(filler).size;
      const fd = openSync(filler, 'r+');
      ftruncateSync(fd, bytes === undefined ? 0 : Math.max(0, size - bytes));
      closeSync(fd);
    },
    readOnly(on) {
      execFileSync('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, dir]);
    },
    unmount() {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
