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
