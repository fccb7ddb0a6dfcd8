// The V8 flags the agent sets for its whole process once it runs (the probe thread included: V8's
// flags are per process). Only flags V8 reads while it runs belong here; those it reads when it
// starts (heap sizes, compile threads) are on the command's first line (src-main/cli/main.ts)
// and in the desktop app's launch flags, which are kept equal by test/electron/v8-flags.test.ts.
// The first line has no room left either way: Linux before 5.1 cuts it at 127 bytes.
import { setFlagsFromString } from 'node:v8';

/**
 * --no-allocation-site-pretenuring (issue 26). V8 learns for each allocation site whether its
 * objects outlive a young-generation GC and, once most do, allocates them straight in the old
 * generation. At 1,000 runs a second ~660 sites were so tenured within 30 s
 * (--trace-pretenuring-statistics): objects that live a few hundred ms (a result waiting for its
 * commit, a check's last run) and then die in the old generation, where they also keep every
 * young object they point to alive until the next full GC, which promotes those in turn.
 * Measured at 1,000 checks (bench/agent, v8.GCProfiler over 15 s, two runs of each): promoted
 * 4.7-5.0 -> 1.8 MB a second, full GCs 1.8 -> 0.5 a second, a scavenge 1.7-2.0 -> 0.9-1.2 ms;
 * CPU per probe 0.459 -> 0.409 ms (npm run bench:flags, 3 interleaved rounds), the same RSS.
 */
export const runtimeV8Flags = ['--no-allocation-site-pretenuring'] as const;

/** Sets runtimeV8Flags; idempotent, so every agent the process creates may call it. */
export function applyRuntimeV8Flags(): void {
  for (const flag of runtimeV8Flags) setFlagsFromString(flag);
}
