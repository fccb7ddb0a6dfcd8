// The few signals the whole window agrees on, as pure functions of the snapshot: the document
// title and whether the unsent backlog deserves a badge. Both read the agent's one summary
// (src-main/ipc/agent-summary.ts), so the title, the pill, the tray and the badge never disagree.
import { backlogStuck, summarizeAgent } from '../../src-main/ipc/agent-summary.ts';
import type { AgentSnapshot, FailureFacts } from '../../src-main/ipc/contract.ts';
import type { ConnectionState } from '../bridge/connection.ts';

const appName = 'Uptime Agent';

/**
 * The Unsent badge appears only when the backlog is late (older than the summary's threshold:
 * a count that comes and goes every few seconds is noise) or results were refused or dropped.
 */
export function backlogNeedsAttention(snapshot: AgentSnapshot): boolean {
  const { outbox } = snapshot;
  return outbox.rejectedCount > 0 || outbox.dropped > 0 || backlogStuck(snapshot);
}

/**
 * A loop's last failure, if it still says something about now. The connection state is the one
 * source for "could not reach": once the server answers again (connected since a moment after the
 * failure), a sync that could not reach it before is history, even though the sync loop has not
 * run since. A failure the server itself gave (a 503 to uploads, a refused payload) is that
 * call's own: another call getting through does not disprove it, so it stays until its loop succeeds.
 */
export function currentFailure(snapshot: AgentSnapshot, loop: 'sync' | 'upload'): FailureFacts | undefined {
  const { lastFailure, lastAttemptAt } = snapshot[loop];
  if (lastFailure === undefined) return undefined;
  const { state, since } = snapshot.connection;
  if (state !== 'connected') return lastFailure;
  if (lastFailure.kind !== 'network' && lastFailure.kind !== 'timeout') return lastFailure;
  // Without both times the order is unknown: keep saying it (the agent always records both).
  if (since === undefined || lastAttemptAt === undefined) return lastFailure;
  return Date.parse(lastAttemptAt) >= Date.parse(since) ? lastFailure : undefined;
}

/** "2 down · Uptime Agent": the state first, so a tab or taskbar entry says it. */
export function windowTitle(snapshot: AgentSnapshot | undefined, connection: ConnectionState): string {
  if (connection !== 'connected') return `Disconnected · ${appName}`;
  if (snapshot === undefined) return appName;
  return `${summarizeAgent(snapshot).label} · ${appName}`;
}
