// SQLite's page cache, sized to the results a second the store takes (issue 26). SQLite keeps up
// to 2,000 KiB of pages by default, and the agent's one connection fills it at 1,000 results a
// second (2.1 MB, read with sqlite3_db_status, against 0.3 MB at 20 checks a second): pages the
// commits touched once or twice stay until the cache is full. At 1,000 results a second half of it
// served the same commits at the same CPU per probe, ~1 MB less; at 6,000 half saved nothing and
// cost rate, so the full cache comes back from 1,500 (where the probe thread starts too, for its
// own reasons: defaults.ts). Figures in docs/performance.md "Memory added by checks".
import type { Database } from './database.ts';

/** The cache's size by load, in KiB (SQLite's default is 2,000). */
export const pageCacheKib = { light: 1_024, busy: 2_000 } as const;

/** From this many results a second (over one window) the store gets SQLite's full cache. */
export const busyFromResultsPerSec = 1_500;

/** The load is judged over this long, so that a burst of results does not resize the cache. */
const windowMs = 10_000;

export interface PageCache {
  /** `results` were committed at monotonic time `at` (ms). */
  committed(results: number, at: number): void;
  /** The cache's size now, in KiB. */
  kib(): number;
}

/** Starts the cache light (an agent starts with its first runs spread, whatever its checks). */
export function createPageCache(db: Database): PageCache {
  let kib: number = pageCacheKib.light;
  /** Monotonic ms of the window's start: the first commit's time until one window has passed. */
  let windowStart: number | undefined;
  let results = 0;
  const apply = (size: number): void => {
    kib = size;
    // Negative: a size in KiB rather than in pages. Shrinking frees the pages beyond it at once.
    db.exec(`PRAGMA cache_size = -${size}`);
  };
  apply(kib);
  return {
    committed(count, at) {
      windowStart ??= at;
      results += count;
      const span = at - windowStart;
      if (span < windowMs) return;
      const perSec = (results * 1000) / span;
      windowStart = at;
      results = 0;
      const wanted = perSec >= busyFromResultsPerSec ? pageCacheKib.busy : pageCacheKib.light;
      if (wanted !== kib) apply(wanted);
    },
    kib: () => kib,
  };
}
