// Pure schedule arithmetic: a stable per-check phase from its guid, and a fixed grid of run
// times (k * interval + phase, in epoch ms) that never drifts however late a run starts.

/** FNV-1a, 32 bit: stable across runs and platforms, well spread for similar guids. */
export function hashGuid(guid: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < guid.length; i++) {
    hash ^= guid.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The check's offset within its interval: checks of one interval spread over all of it. */
export const phaseMs = (guid: string, intervalMs: number): number => hashGuid(guid) % Math.max(1, intervalMs);

/** The first grid point strictly after t. */
export function nextGridPoint(t: number, intervalMs: number, phase: number): number {
  const k = Math.floor((t - phase) / intervalMs) + 1;
  return k * intervalMs + phase;
}

/**
 * When a newly seen check first runs: within the start-up spread (a few seconds), at a stable
 * spot derived from its guid, so a thousand new checks do not all fire in the same millisecond.
 */
export function firstRunAt(now: number, guid: string, intervalMs: number, spreadMs: number): number {
  const window = Math.max(1, Math.min(spreadMs, intervalMs));
  return now + (hashGuid(guid, 0x9e3779b9) % window);
}

/**
 * The grid point that follows a first run: at least half an interval later, so a check whose
 * grid point falls just after its first run does not run twice in a row.
 */
export const gridAfterFirstRun = (firstRun: number, intervalMs: number, phase: number): number =>
  nextGridPoint(firstRun + intervalMs / 2, intervalMs, phase);

/** How a check shared by several monitors is split between them (wire monitor_count/rank). */
export interface Sharing {
  /** Active monitors assigned to the check; absent or below 1 means 1. */
  monitorCount?: number | undefined;
  /** This monitor's 0-based rank among them; absent means 0. */
  monitorRank?: number | undefined;
}

/** Monitors sharing the check, at least 1. */
export const sharedBy = (sharing: Sharing): number => Math.max(1, Math.floor(sharing.monitorCount ?? 1));

/**
 * How often this monitor runs the check: N monitors take turns, one run per interval in all. In
 * the interval's own unit (the grid's ms, the status report's seconds).
 */
export const effectiveInterval = (interval: number, sharing: Sharing): number => interval * sharedBy(sharing);

/** Where a check sits on this monitor's grid: every `periodMs`, at `phase` within it. */
export interface GridSlot {
  periodMs: number;
  phase: number;
}

/**
 * The per-guid phase lives within one interval_sec, the same on every monitor; each rank takes
 * the next interval of the shared cycle, so N monitors together probe once per interval_sec.
 * A rank beyond the count (the server's data changing under us) wraps instead of leaving a gap.
 */
export function gridSlot(guid: string, intervalMs: number, sharing: Sharing): GridSlot {
  const count = sharedBy(sharing);
  const rank = Math.floor(sharing.monitorRank ?? 0);
  return {
    periodMs: effectiveInterval(intervalMs, sharing),
    phase: phaseMs(guid, intervalMs) + (((rank % count) + count) % count) * intervalMs,
  };
}
