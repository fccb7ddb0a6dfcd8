// When a check "flaps": it changes between passing and failing so often that each change is no
// longer news. Such a check is told once as flapping, with its pattern, instead of once per
// change, until it settles (keeps one state for a while). Pure: times are passed in.

export const flapDefaults = {
  /**
   * State changes (failing, passing again, …) within windowMs that make a check flapping. Four
   * is two short outages in a row: the second one is where a person stops reading the cards
   * one by one, and the first two are still told as they happen.
   */
  changes: 4,
  /**
   * Ten minutes: a check at the common 30-60 s interval that fails every other run is caught
   * within minutes, while a check that goes down twice an hour (two real incidents) is not.
   */
  windowMs: 10 * 60_000,
  /**
   * A flapping check has settled once it kept one state this long. Half the window: long
   * enough that a pause between two bursts is not taken for the end, short enough that a real
   * outage after the flapping is told within minutes.
   */
  settleMs: 5 * 60_000,
};

export type FlapTunables = typeof flapDefaults;

/** A flapping check: since when (its first change counted) and how many changes so far. */
export interface Flapping {
  sinceMs: number;
  changes: number;
}

export interface FlapWatch {
  /** The check changed state at atMs; returns the flapping it starts, if this change starts one. */
  changed(guid: string, atMs: number): Flapping | undefined;
  /** A run that did not change the state: true when a flapping check has now settled (and is cleared). */
  settled(guid: string, atMs: number): boolean;
  flapping(guid: string): Flapping | undefined;
  /** A flapping episode found open in the log at start: the changes before are not known. */
  resume(guid: string, sinceMs: number, nowMs: number): void;
  forget(guid: string): void;
}

interface Memory {
  /** Times of the recent changes, within the window, oldest first (not flapping). */
  changes: number[];
  lastChangeMs: number;
  flapping?: Flapping;
}

export function createFlapWatch(tunables: Partial<FlapTunables> = {}): FlapWatch {
  const settings = { ...flapDefaults, ...tunables };
  const checks = new Map<string, Memory>();

  return {
    changed(guid, atMs) {
      const memory = checks.get(guid) ?? { changes: [], lastChangeMs: atMs };
      checks.set(guid, memory);
      memory.lastChangeMs = atMs;
      if (memory.flapping !== undefined) {
        memory.flapping.changes++;
        return undefined;
      }
      memory.changes = [...memory.changes.filter((t) => atMs - t < settings.windowMs), atMs];
      if (memory.changes.length < settings.changes) return undefined;
      memory.flapping = { sinceMs: memory.changes[0] ?? atMs, changes: memory.changes.length };
      memory.changes = [];
      return { ...memory.flapping };
    },
    settled(guid, atMs) {
      const memory = checks.get(guid);
      if (memory?.flapping === undefined || atMs - memory.lastChangeMs < settings.settleMs) return false;
      checks.delete(guid);
      return true;
    },
    flapping: (guid) => {
      const flapping = checks.get(guid)?.flapping;
      return flapping === undefined ? undefined : { ...flapping };
    },
    resume(guid, sinceMs, nowMs) {
      checks.set(guid, { changes: [], lastChangeMs: nowMs, flapping: { sinceMs, changes: 0 } });
    },
    forget: (guid) => void checks.delete(guid),
  };
}
