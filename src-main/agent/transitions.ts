// Turns the stream of check runs into "went down" / "recovered" transitions, for notifications
// and the UI. A skipped run (offline) and a cancelled run say nothing and change nothing.
import type { ProbeOutcome } from './probes/types.ts';

export interface CheckTransition {
  guid: string;
  name: string;
  kind: 'down' | 'recovered';
  /** The failure, for a down transition (redacted like everything the UI shows). */
  error?: string;
  at: string;
}

export interface TransitionTracker {
  /** Returns the transition this run makes, if any. */
  observe(guid: string, name: string, outcome: ProbeOutcome, skipped: boolean, at: Date): CheckTransition | undefined;
  forget(guid: string): void;
}

export function createTransitionTracker(): TransitionTracker {
  const up = new Map<string, boolean>();
  return {
    observe(guid, name, outcome, skipped, at) {
      if (skipped || outcome.cancelled === true) return undefined;
      const before = up.get(guid);
      up.set(guid, outcome.success);
      // The first run of a check only announces a failure: "it is up" is not news.
      if (before === outcome.success || (before === undefined && outcome.success)) return undefined;
      return {
        guid,
        name,
        kind: outcome.success ? 'recovered' : 'down',
        ...(outcome.success ? {} : { error: outcome.error }),
        at: at.toISOString(),
      };
    },
    forget(guid) {
      up.delete(guid);
    },
  };
}
