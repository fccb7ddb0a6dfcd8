// How many runs may be in flight at once, following the probe thread's load (issue 26). The
// scheduler's cap (agentDefaults.concurrency) is sized for targets that hang until their timeout:
// runs waiting on them hold slots while the other checks go on. But when the probe thread itself
// is what the runs wait for (its loop busy nearly all the time), runs beyond the few that keep it
// busy add nothing: they queue inside the thread, each alive longer, and their young objects
// outlive the thread's scavenges. So the cap follows the thread: it halves, down to
// agentDefaults.busyConcurrency, after each window in which the thread's loop was busy
// >= busyFrom of the time, and doubles back, up to agentDefaults.concurrency, after each window
// under spareBelow. Runs that wait on slow targets leave the thread idle, which raises the cap
// again within a few windows; without a probe thread the cap is the full one.
// The busy share is the loop's, not its CPU: on a machine short of cores the loop also reads busy
// while its thread waits for one. A cap that stays at the full one did no better there, and with
// 256 runs in flight the thread spent twice as long in GC (docs/performance.md, "The probe thread
// near saturation").

/** The cap's range: agentDefaults.concurrency and busyConcurrency. */
export interface RunCapBounds {
  most: number;
  least: number;
}

export const runCapRule = {
  /** The thread's loop this busy (event loop utilization over a window): it is the bottleneck. */
  busyFrom: 0.9,
  /** Under this share it has time for more runs in flight. */
  spareBelow: 0.75,
  /**
   * One window per step: from 256 down to 64 takes two windows, and back up two more (half a
   * second) once runs wait on slow targets instead of on the thread.
   */
  windowMs: 250,
} as const;

/** The next cap after a window; busyShare undefined: no probe thread, the full cap. */
export function nextRunCap(cap: number, busyShare: number | undefined, bounds: RunCapBounds): number {
  if (busyShare === undefined) return bounds.most;
  if (busyShare >= runCapRule.busyFrom) return Math.min(cap, Math.max(bounds.least, Math.floor(cap / 2)));
  if (busyShare < runCapRule.spareBelow) return Math.min(bounds.most, cap * 2);
  return cap;
}

export interface RunCapDeps {
  bounds: RunCapBounds;
  /** Monotonic ms. */
  now: () => number;
  /** The probe thread's busy share since the previous call; undefined while there is no thread. */
  busyShare: () => number | undefined;
}

/**
 * The cap as the scheduler reads it before starting runs. It is worked out only when read and a
 * window has passed, so an agent with nothing to start keeps no timer for it.
 */
export function createRunCap(deps: RunCapDeps): () => number {
  let cap = deps.bounds.most;
  let windowStart: number | undefined;
  return () => {
    const now = deps.now();
    if (windowStart === undefined) {
      windowStart = now;
      deps.busyShare();
    } else if (now - windowStart >= runCapRule.windowMs) {
      windowStart = now;
      cap = nextRunCap(cap, deps.busyShare(), deps.bounds);
    }
    return cap;
  };
}
