// What the overview leads with, as pure functions of the snapshot: the checks that are down
// (longest first) and the agent's problems, each with the one action that fixes it. "No
// problems" is only said when neither list has anything.
import type { AgentSnapshot, CheckView, Problem } from '../../src-main/ipc/contract.ts';
import { clockTime, serverUnreachable } from '../../src-main/ipc/agent-summary.ts';
import { backlogNeedsAttention, currentFailure } from '../state/signals.ts';
import { ago, count, dateTime } from '../format.ts';
import { apiFailureWords } from '../words/failure-words.ts';
import { problemActionLabel, problemText } from '../../src-main/ipc/problem-words.ts';

export interface DownCheck {
  check: CheckView;
  since: string | undefined;
  /** The last failure in words. */
  reason: string;
}

export type OverviewAction = Problem['action'] | 'outages' | 'sync-now' | 'upload-now';

export interface OverviewProblem {
  kind: string;
  message: string;
  action: OverviewAction;
  actionLabel: string;
  severity: 'bad' | 'warn';
}

/** Down checks, longest first; a flapping check is listed among the flapping ones instead. */
export function downChecks(snapshot: AgentSnapshot): DownCheck[] {
  return snapshot.checks
    .filter((c) => c.health === 'down' && c.flapping === undefined)
    .map((check) => ({
      check,
      since: check.downSince ?? check.lastResult?.ran_at,
      reason:
        check.lastResult?.error === undefined || check.lastResult.error === ''
          ? 'the last run failed'
          : check.lastResult.error,
    }))
    .sort((a, b) => (a.since ?? '').localeCompare(b.since ?? '') || a.check.name.localeCompare(b.check.name));
}

/** Checks that keep going down and up, the longest flapping first. */
export function flappingChecks(snapshot: AgentSnapshot): CheckView[] {
  return snapshot.checks
    .filter((c) => c.flapping !== undefined)
    .sort((a, b) => (a.flapping?.since ?? '').localeCompare(b.flapping?.since ?? '') || a.name.localeCompare(b.name));
}

/**
 * A loop's current failure for the Connection card: "failing: <why>", shortened when it is the
 * very failure that made the server unreachable (the problem above already says why).
 */
export function loopFailureText(snapshot: AgentSnapshot, loop: 'sync' | 'upload'): string | undefined {
  const failure = currentFailure(snapshot, loop);
  if (failure === undefined) return undefined;
  const { state, lastFailure } = snapshot.connection;
  if (state === 'unreachable' && failure.kind === lastFailure?.kind && failure.cause === lastFailure.cause)
    return 'failing until the server answers again';
  return `failing: ${apiFailureWords(failure)}`;
}

/** The server as the Connection card states it: words and tone, from the connection state alone. */
export function serverState(snapshot: AgentSnapshot): { text: string; tone: 'ok' | 'warn' | 'bad' | 'muted' } {
  const { state, since } = snapshot.connection;
  const at = clockTime(since, snapshot.takenAt);
  switch (state) {
    case 'connected':
      return { text: 'Connected', tone: 'ok' };
    case 'connecting':
      return { text: 'Connecting…', tone: 'muted' };
    case 'unreachable':
      return { text: `Cannot be reached since ${at}`, tone: 'warn' };
    case 'rejected':
      return { text: `Does not accept this monitor’s key since ${at}`, tone: 'bad' };
    case 'disabled':
      return { text: `Has disabled this monitor since ${at}`, tone: 'bad' };
  }
}

/** The server went away: since when, and why, in words from the failure's kind. */
function unreachableText(snapshot: AgentSnapshot, now: number): string {
  const { since, lastFailure } = snapshot.connection;
  // A server that answers with errors is there, just not working: say that, not "cannot be reached".
  const answering = lastFailure?.kind === 'server' || lastFailure?.kind === 'invalid-answer';
  const what = answering ? 'The server is not answering as it should' : 'The server cannot be reached';
  const contact = snapshot.connectivity.lastContactAt;
  const last = contact === undefined ? '' : ` (last contact ${ago(contact, now)})`;
  const why = lastFailure === undefined ? '' : ` ${apiFailureWords(lastFailure)}`;
  return `${what} since ${clockTime(since, snapshot.takenAt)}${last}; results wait here and checks go on.${why}`;
}

const severe = new Set(['key-rejected', 'monitor-disabled', 'key-damaged', 'results-dropped', 'private-file']);

/** The snapshot's problems plus what its connection and backlog say, worst first. */
export function agentProblems(snapshot: AgentSnapshot, now: number): OverviewProblem[] {
  const problems: OverviewProblem[] = [];
  if (!snapshot.connectivity.online) {
    problems.push({
      kind: 'offline',
      message: `This machine is offline since ${dateTime(snapshot.connectivity.offlineSince)}: neither the server nor any connectivity target answers. Checks that get no answer are kept as skipped; results are sent when the network is back.`,
      action: 'outages',
      actionLabel: 'See outages',
      severity: 'bad',
    });
  } else if (serverUnreachable(snapshot) && !snapshot.problems.some((p) => p.kind === 'server-connection')) {
    // From the connection state alone, so it clears the moment any call gets through. A
    // server-connection problem (proxy, untrusted certificate...) already says what and what to do.
    problems.push({
      kind: 'server-unavailable',
      message: unreachableText(snapshot, now),
      action: 'sync-now',
      actionLabel: 'Try again now',
      severity: 'warn',
    });
  }
  for (const p of snapshot.problems) {
    // Once the proxy or CA is fixed, the user wants to see it work without waiting for the next sync.
    const retry =
      p.kind === 'server-connection' && p.action === 'none'
        ? { action: 'sync-now' as const, actionLabel: 'Try again now' }
        : {};
    // A failed connection says what failed and what to check, from its kind and cause.
    const message = p.kind === 'server-connection' ? apiFailureWords(p.failure) : problemText(p);
    problems.push({
      kind: p.kind,
      message,
      action: p.action,
      actionLabel: problemActionLabel(p),
      ...retry,
      severity: severe.has(p.kind) ? 'bad' : 'warn',
    });
  }
  const { outbox } = snapshot;
  if (
    snapshot.connectivity.online &&
    snapshot.auth === 'ok' &&
    outbox.rejectedCount === 0 &&
    outbox.dropped === 0 &&
    backlogNeedsAttention(snapshot)
  ) {
    problems.push({
      kind: 'backlog',
      message: `${count(outbox.unsent, 'result')} wait to be sent, the oldest from ${ago(outbox.oldestRanAt, now)}.`,
      action: 'upload-now',
      actionLabel: 'Send now',
      severity: 'warn',
    });
  }
  return problems.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'bad' ? -1 : 1));
}
