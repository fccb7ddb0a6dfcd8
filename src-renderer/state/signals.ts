// The few signals the whole window agrees on, as pure functions of the snapshot: the document
// title and whether the unsent backlog deserves a badge. Both read the agent's one summary
// (src-main/ipc/agent-summary.ts), so the title, the pill, the tray and the badge never disagree.
import { backlogStuck, summarizeAgent } from '../../src-main/ipc/agent-summary.ts';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
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

/** "2 down · Uptime Agent": the state first, so a tab or taskbar entry says it. */
export function windowTitle(snapshot: AgentSnapshot | undefined, connection: ConnectionState): string {
  if (connection !== 'connected') return `Disconnected · ${appName}`;
  if (snapshot === undefined) return appName;
  return `${summarizeAgent(snapshot).label} · ${appName}`;
}
