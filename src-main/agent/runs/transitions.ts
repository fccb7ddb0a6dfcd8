// Check runs and the agent's state as episodes of the persisted event log, and the "went down" /
// "recovered" transitions the window, the tray and desktop notifications are told. A transition
// is announced only when the log opened or closed an episode, so the three never disagree, and
// a restarted agent that finds a check still down does not announce it again. A skipped run
// (offline) and a cancelled run say nothing about the target and change nothing.
import type { ProbeOutcome } from '../probes/types.ts';
import type { AgentEvent, AgentEventKind, EventLog } from '../store/events.ts';

export interface CheckTransition {
  guid: string;
  name: string;
  kind: 'down' | 'recovered';
  /** The failure, for a down transition (redacted like everything the UI shows). */
  error?: string;
  at: string;
  /** For a recovery: when the check went down. */
  downSince?: string;
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
  /** The check is no longer run here: its open down episode ends (the log keeps it). */
  forget(guid: string): void;
}

const agentKinds: readonly AgentEventKind[] = [
  'offline',
  'server-unavailable',
  'key-rejected',
  'monitor-disabled',
  'clock-skew',
  'store-full',
];

export function createTransitionTracker(log: EventLog, now: () => Date): TransitionTracker {
  // Open down episodes by guid, read once: every snapshot asks for each check.
  const down = new Map<string, string>();
  for (const event of log.openEvents()) if (event.kind === 'down') down.set(event.checkGuid, event.startedAt);

  return {
    observe(run, outcome, at) {
      if (run.skipped || outcome.cancelled === true) return undefined;
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
    forget(guid) {
      if (!down.delete(guid)) return;
      log.end({ kind: 'down', guid }, now(), 'the check is no longer run here');
    },
  };
}
