// Check runs and the agent's state as episodes of the persisted event log, and the "went down" /
// "recovered" / "flapping" transitions the window, the tray and desktop notifications are told.
// A transition is announced only when the log opened or closed an episode, so the three never
// disagree, and a restarted agent that finds a check still down does not announce it again. A
// skipped run (offline) and a cancelled run say nothing about the target and change nothing.
// A check that flaps (flapping.ts) is announced once as flapping; its changes are still logged
// as down episodes (its pattern) but not announced, until it settles: then its state is told
// once more, as a down or a recovery marked `settled`.
import type { ProbeOutcome } from '../probes/types.ts';
import type { AgentEvent, AgentEventKind, EventLog } from '../store/events.ts';
import { createFlapWatch, type FlapTunables, type Flapping } from './flapping.ts';

export interface CheckTransition {
  guid: string;
  name: string;
  kind: 'down' | 'recovered' | 'flapping';
  /** The failure, for a down transition (redacted like everything the UI shows). */
  error?: string;
  at: string;
  /** For a recovery: when the check went down. */
  downSince?: string;
  /** For flapping: since when (its first change counted) and how many changes so far. */
  flapping?: { since: string; changes: number };
  /** A down or a recovery that ends a flapping episode: the state the check settled in. */
  settled?: boolean;
}

export interface ObservedRun {
  guid: string;
  name: string;
  skipped: boolean;
  /** The run's error as the UI may show it (already redacted). */
  error: string;
}

/** The agent's episodes holding now, each with the reason it is shown with. */
export type AgentConditions = Partial<Record<AgentEventKind, string>>;

export interface TransitionTracker {
  /** Returns the transition this run makes, if any. */
  observe(run: ObservedRun, outcome: ProbeOutcome, at: Date): CheckTransition | undefined;
  /** Opens the conditions that appeared, closes those gone; returns the episodes that changed. */
  agentState(conditions: AgentConditions, at: Date): AgentEvent[];
  /** When the check's open down episode began. */
  downSince(guid: string): string | undefined;
  /** While the check flaps: since when and how many changes so far. */
  flapping(guid: string): { since: string; changes: number } | undefined;
  /** The check is no longer run here: its open down episode ends (the log keeps it). */
  forget(guid: string): void;
}

const agentKinds: readonly AgentEventKind[] = [
  'offline',
  'key-rejected',
  'monitor-disabled',
  'clock-skew',
  'store-full',
];

/** The flapping episode's reason, for `status --json` and the log; the window words it from its fields. */
function flapWords(flapping: Flapping, atMs: number): string {
  const minutes = Math.max(1, Math.round((atMs - flapping.sinceMs) / 60_000));
  return `changed between failing and passing ${flapping.changes} times in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

export function createTransitionTracker(
  log: EventLog,
  now: () => Date,
  flapTunables: Partial<FlapTunables> = {},
): TransitionTracker {
  const flaps = createFlapWatch(flapTunables);
  // Open down episodes by guid, read once: every snapshot asks for each check.
  const down = new Map<string, string>();
  for (const event of log.openEvents()) {
    if (event.kind === 'down') down.set(event.checkGuid, event.startedAt);
    if (event.kind === 'flapping') flaps.resume(event.checkGuid, Date.parse(event.startedAt), now().getTime());
  }

  /** The run's own transition, before flapping is considered. */
  function change(run: ObservedRun, outcome: ProbeOutcome, at: Date): CheckTransition | undefined {
    const subject = { kind: 'down' as const, guid: run.guid, name: run.name };
    if (!outcome.success) {
      const { event, opened } = log.begin(subject, at, run.error === '' ? 'the check failed' : run.error);
      down.set(run.guid, event.startedAt);
      return opened
        ? { guid: run.guid, name: run.name, kind: 'down', error: run.error, at: at.toISOString() }
        : undefined;
    }
    if (!down.has(run.guid)) return undefined;
    down.delete(run.guid);
    const ended = log.end(subject, at, outcome.httpStatus > 0 ? `status ${outcome.httpStatus}` : 'the check passed');
    return ended === undefined
      ? undefined
      : { guid: run.guid, name: run.name, kind: 'recovered', at: at.toISOString(), downSince: ended.startedAt };
  }

  /** The current state of a check that just settled, told once. */
  function settledState(run: ObservedRun, outcome: ProbeOutcome, at: Date): CheckTransition {
    const base = { guid: run.guid, name: run.name, at: at.toISOString(), settled: true };
    const since = down.get(run.guid);
    log.end(
      { kind: 'flapping', guid: run.guid },
      at,
      outcome.success ? 'settled: it passes steadily again' : 'settled: it stays down',
    );
    return outcome.success
      ? { ...base, kind: 'recovered' }
      : { ...base, kind: 'down', error: run.error, ...(since === undefined ? {} : { downSince: since }) };
  }

  return {
    observe(run, outcome, at) {
      if (run.skipped || outcome.cancelled === true) return undefined;
      const transition = change(run, outcome, at);
      if (transition === undefined)
        return flaps.settled(run.guid, at.getTime()) ? settledState(run, outcome, at) : undefined;
      const wasFlapping = flaps.flapping(run.guid) !== undefined;
      const started = flaps.changed(run.guid, at.getTime());
      if (wasFlapping) return undefined; // the pattern is in the log; the change is not news
      if (started === undefined) return transition;
      const since = new Date(started.sinceMs);
      log.begin({ kind: 'flapping', guid: run.guid, name: run.name }, since, flapWords(started, at.getTime()));
      return {
        guid: run.guid,
        name: run.name,
        kind: 'flapping',
        at: at.toISOString(),
        flapping: { since: since.toISOString(), changes: started.changes },
        ...(outcome.success ? {} : { error: run.error }),
      };
    },
    agentState(conditions, at) {
      const changed: AgentEvent[] = [];
      for (const kind of agentKinds) {
        const reason = conditions[kind];
        if (reason === undefined) {
          const ended = log.end({ kind }, at);
          if (ended !== undefined) changed.push(ended);
          continue;
        }
        const { event, opened } = log.begin({ kind }, at, reason);
        if (opened) changed.push(event);
      }
      return changed;
    },
    downSince: (guid) => down.get(guid),
    flapping(guid) {
      const flapping = flaps.flapping(guid);
      return flapping === undefined
        ? undefined
        : { since: new Date(flapping.sinceMs).toISOString(), changes: flapping.changes };
    },
    forget(guid) {
      if (flaps.flapping(guid) !== undefined)
        log.end({ kind: 'flapping', guid }, now(), 'the check is no longer run here');
      flaps.forget(guid);
      if (!down.delete(guid)) return;
      log.end({ kind: 'down', guid }, now(), 'the check is no longer run here');
    },
  };
}
