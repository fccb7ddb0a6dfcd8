// Pure schedule arithmetic: a stable per-check phase from its guid, and a fixed grid of run
// times (k * interval + phase, in epoch ms) that never drifts however late a run starts.

const utf8 = new TextEncoder();

/**
 * FNV-1a, 32 bit, of the guid's UTF-8 bytes: stable across runs and platforms, well spread for
 * similar guids, and the very hash the server's own agent uses for its slots.
 */
export function hashGuid(guid: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (const byte of utf8.encode(guid)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

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

/** The offset of a check nobody shares within its interval: checks of one interval spread over it. */
export const phaseMs = (guid: string, intervalMs: number): number => gridSlot(guid, intervalMs, {}).phase;

/** The slot formula's unit, in the grid's ms. */
const secondMs = 1000;

/**
 * The end of the whole second `t` (epoch ms) falls in. A run's slot is a whole second (gridSlot):
 * the scheduler starts no run early across this line, into the second before its own.
 */
export const secondEnd = (t: number): number => (Math.floor(t / secondMs) + 1) * secondMs;

/** Seed of the second hash that places a check inside its slot's second (any fixed odd value). */
const subSecondSeed = 0x2545f491;

/**
 * The server's own agent's slot formula, verbatim (design.md "Shared checks"), so a fleet mixing
 * the two agents probes a shared check at even gaps. In whole Unix seconds: effective =
 * interval × count; phase = (rank × interval + h mod effective) mod effective; runs at t where
 * (t − phase) mod effective = 0. A rank beyond the count wraps instead of leaving a gap.
 *
 * Inside that second the run starts at a stable millisecond from a second hash of the guid, the
 * same for every rank, so each monitor's run lands in its slot's second (the check of issue 24:
 * "landing on its slot within a second") and the gaps between ranks stay exact. Without it every
 * check at 1 s (and a sixtieth of those at 60 s) started in the same millisecond: a thousand
 * connects in one burst, each run alive 20x longer, all its garbage promoted, and a p99 lag of
 * 391 ms at 1,000 checks against 6 ms with the offset (bench:agent, issue 26 note).
 * Intervals of a fraction of a second (tests, never the wire) use the same rule in milliseconds.
 */
export function gridSlot(guid: string, intervalMs: number, sharing: Sharing): GridSlot {
  const count = sharedBy(sharing);
  const rank = ((Math.floor(sharing.monitorRank ?? 0) % count) + count) % count;
  const periodMs = effectiveInterval(intervalMs, sharing);
  const unit = intervalMs % secondMs === 0 ? secondMs : 1;
  const interval = intervalMs / unit;
  const effective = interval * count;
  const slot = (rank * interval + (hashGuid(guid) % effective)) % effective;
  const withinSecond = unit === secondMs ? hashGuid(guid, subSecondSeed) % secondMs : 0;
  return { periodMs, phase: slot * unit + withinSecond };
}
