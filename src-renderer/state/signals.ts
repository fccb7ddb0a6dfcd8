// The few signals the whole window agrees on: the document title, whether the unsent backlog
// deserves a badge, and the top pill's tone. Pure functions of the snapshot, so the title, the
// badge, the pill and their tests can never disagree.
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import type { ConnectionState } from '../bridge/connection.ts';

const appName = 'Uptime Agent';

/**
 * Results normally leave within an upload interval or two. The badge appears only when the
 * oldest has waited longer than a few of them (or results were refused or dropped): a count
 * that comes and goes every few seconds is noise, not news.
 */
export const backlogLateMs = 60_000;

export function backlogNeedsAttention(snapshot: AgentSnapshot, now: number): boolean {
  const { outbox } = snapshot;
  if (outbox.rejectedCount > 0 || outbox.dropped > 0) return true;
  if (outbox.unsent === 0 || outbox.oldestRanAt === undefined) return false;
  return now - Date.parse(outbox.oldestRanAt) > backlogLateMs;
}

/** "2 down · Uptime Agent": the state first, so a tab or taskbar entry says it. */
export function windowTitle(snapshot: AgentSnapshot | undefined, connection: ConnectionState): string {
  if (connection !== 'connected') return `Disconnected · ${appName}`;
  if (snapshot === undefined) return appName;
  if (!snapshot.enrolled) return `Not enrolled · ${appName}`;
  const down = snapshot.counts.down;
  const parts: string[] = [];
  if (down > 0) parts.push(`${down} down`);
  if (!snapshot.connectivity.online) parts.push('offline');
  else if (snapshot.auth === 'key-rejected') parts.push('key refused');
  else if (snapshot.auth === 'monitor-disabled') parts.push('disabled');
  else if (snapshot.paused) parts.push('paused');
  if (parts.length === 0) parts.push(snapshot.counts.total === 0 ? 'no checks' : 'all up');
  return `${parts.join(', ')} · ${appName}`;
}
