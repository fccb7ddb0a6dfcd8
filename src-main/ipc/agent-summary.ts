// The agent summed up for a human, in one place for the tray icon, its tooltip and menu, and the
// window's status pill and title: one precedence, so that (say) paused + offline reads the same
// everywhere. The server's connection state (decided once in the agent, live/connection.ts) is
// the headline whenever the server is away; "Online"/"Offline" is this machine's network only.
// Type imports only: the renderer bundles this file.
import type { AgentSnapshot, CheckHealth } from './contract.ts';
import { timeOfDay } from './time-of-day.ts';

export const agentConditions = ['not-enrolled', 'ok', 'warning', 'error', 'paused'] as const;
export type AgentCondition = (typeof agentConditions)[number];

export interface AgentSummary {
  condition: AgentCondition;
  tone: 'idle' | 'ok' | 'warn' | 'bad';
  /** A word or two: the status pill. */
  label: string;
  /** One sentence: the first line of the tray menu. */
  line: string;
  /** The tooltip: the figures, then what is wrong. */
  tooltip: string;
}

/**
 * Unsent results older than this mean delivery is stuck, not busy: uploads run every few
 * seconds, so a result still waiting after a dozen upload intervals is news. The status pill,
 * the tray and the window's Unsent badge all use this one rule.
 */
export const backlogWarnAfterMs = 2 * 60_000;

/** Problems that need the user but leave the checks running: attention, not an error. */
const attentionProblems = new Set([
  'private-missing',
  'private-invalid',
  'private-file',
  'rejected-results',
  'results-dropped',
  'overloaded',
  'settings-problem',
  'local-resources',
]);

const plural = (n: number, one: string): string => `${n} ${n === 1 ? one : `${one}s`}`;

export function backlogStuck(snapshot: AgentSnapshot): boolean {
  const oldest = snapshot.outbox.oldestRanAt;
  if (snapshot.outbox.unsent === 0 || oldest === undefined || oldest === '') return false;
  return Date.parse(snapshot.takenAt) - Date.parse(oldest) > backlogWarnAfterMs;
}

/** A check's state as the window names it (its badge, the Checks filter). */
export const healthLabels: Record<CheckHealth, string> = {
  up: 'Up',
  down: 'Down',
  pending: 'Pending',
  skipped: 'Skipped (offline)',
  paused: 'Paused',
  disabled: 'Disabled',
  'not-run': 'Not run',
};

/** "9 up, 1 down, 0 pending, 1 skipped, 1 not run": every check in exactly one (the window and `status`). */
export function countsText(counts: AgentSnapshot['counts']): string {
  return `${counts.up} up, ${counts.down} down, ${counts.pending} pending, ${counts.skipped} skipped, ${counts.notRun} not run`;
}

/**
 * "12 checks: 9 up, 1 down, 0 pending, 1 skipped, 1 not run". While checks are paused nothing is
 * up or down now: the line says paused, not the held results.
 */
export function countsLine(counts: AgentSnapshot['counts'], paused = false): string {
  if (paused) return `${plural(counts.total, 'check')}: paused, none runs until you resume`;
  return `${plural(counts.total, 'check')}: ${countsText(counts)}`;
}

const toneOf: Record<AgentCondition, AgentSummary['tone']> = {
  'not-enrolled': 'idle',
  ok: 'ok',
  warning: 'warn',
  error: 'bad',
  paused: 'warn',
};

/** "14:02" today, "21 Nov, 14:02" on another day: a local time, never an ISO timestamp. */
export function clockTime(iso: string | undefined, nowIso: string): string {
  const at = iso === undefined ? Number.NaN : Date.parse(iso);
  if (Number.isNaN(at)) return 'a while';
  const date = new Date(at);
  const time = timeOfDay(at);
  if (date.toDateString() === new Date(Date.parse(nowIso)).toDateString()) return time;
  return `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}, ${time}`;
}

/** Why the server takes nothing from this monitor, if it does not: the connection state first. */
function serverRefusal(snapshot: AgentSnapshot): 'key-rejected' | 'key-damaged' | 'monitor-disabled' | undefined {
  if (snapshot.auth === 'key-damaged') return 'key-damaged';
  if (snapshot.connection.state === 'rejected' || snapshot.auth === 'key-rejected') return 'key-rejected';
  if (snapshot.connection.state === 'disabled' || snapshot.auth === 'monitor-disabled') return 'monitor-disabled';
  return undefined;
}

/**
 * The server cannot be reached while this machine's network works: the headline. While offline,
 * the machine's network is the reason, and "Offline" says it.
 */
export function serverUnreachable(snapshot: AgentSnapshot): boolean {
  return snapshot.connection.state === 'unreachable' && snapshot.connectivity.online;
}

/** Why results cannot be saved now, if they cannot. */
function storeFault(snapshot: AgentSnapshot): 'disk-full' | 'write-failed' | undefined {
  for (const p of snapshot.problems) if (p.kind === 'store-problem') return p.fault;
  return undefined;
}

export function summarizeAgent(snapshot: AgentSnapshot): AgentSummary {
  const { total, down } = snapshot.counts;
  const offline = !snapshot.connectivity.online;
  const refusal = serverRefusal(snapshot);
  const away = serverUnreachable(snapshot);
  const sinceText = clockTime(snapshot.connection.since, snapshot.takenAt);
  // The worst state and its count lead ("2 down · 12 checks · …"): a glance at the tooltip says it.
  const flapping = snapshot.checks.filter((c) => c.flapping !== undefined && c.health !== 'down').length;
  const facts = [
    ...(down > 0 ? [`${down} down`] : []),
    ...(flapping > 0 ? [`${flapping} flapping`] : []),
    plural(total, 'check'),
    `${snapshot.outbox.unsent} unsent`,
  ];
  if (refusal === 'key-rejected') facts.push('key not accepted: enroll again');
  if (refusal === 'monitor-disabled') facts.push('monitor disabled on the server');
  if (refusal === 'key-damaged') facts.push('stored key damaged: enroll again');
  if (away) facts.push(`server unreachable since ${sinceText}`);
  if (offline) facts.push('offline');
  if (snapshot.paused) facts.push('paused');
  const store = storeFault(snapshot);
  if (store !== undefined) facts.push(store === 'disk-full' ? 'disk full: results not saved' : 'results not saved');
  const tooltip = facts.join(' · ');
  const summary = (condition: AgentCondition, label: string, line: string): AgentSummary => ({
    condition,
    tone: toneOf[condition],
    label,
    line,
    tooltip,
  });

  if (!snapshot.enrolled) {
    return {
      ...summary('not-enrolled', 'Not enrolled', 'Not enrolled: open the app to enroll'),
      tooltip: 'Uptime Agent: not enrolled. Open it to enroll this computer.',
    };
  }
  // The server refuses this monitor: nothing gets through until the user acts, whatever else holds.
  if (refusal === 'key-rejected')
    return summary('error', 'Key not accepted by the server', 'The server no longer accepts the API key: enroll again');
  if (refusal === 'monitor-disabled')
    return summary('error', 'Monitor disabled on the server', 'Monitor disabled on the server: enable it there');
  if (refusal === 'key-damaged')
    return summary('error', 'Stored key damaged', 'The stored API key is damaged: enroll again');
  const offlineLine = 'Offline: results are kept until it is back';
  const awayLabel = `Server unreachable since ${sinceText}`;
  const awayLine = `${awayLabel}: results are kept until it answers`;
  // What keeps results here, if anything: this machine's network, else the server.
  const held = offline
    ? { label: 'offline', line: offlineLine }
    : away
      ? { label: 'server unreachable', line: awayLine }
      : undefined;
  if (snapshot.paused) {
    return held === undefined
      ? summary('paused', 'Paused', `Checks paused (${total})`)
      : summary('paused', `Paused · ${held.label}`, `Checks paused (${total}) · ${held.line}`);
  }
  // Anything down is red, whatever else holds: that is what the user watches the agent for.
  if (down > 0)
    return summary(
      'error',
      held === undefined ? `${down} down` : `${down} down · ${held.label}`,
      `${down} of ${plural(total, 'check')} down${held === undefined ? '' : ` · ${held.line}`}`,
    );
  // Results live only in memory until the store can write again: at risk, so red.
  if (store === 'disk-full')
    return summary(
      'error',
      'Disk full: results not saved',
      'The disk is full: results wait in memory until there is space',
    );
  if (store !== undefined)
    return summary(
      'error',
      'Results not saved',
      'Results cannot be saved: they wait in memory until the folder can be written',
    );
  if (offline) return summary('warning', 'Offline', offlineLine);
  if (away) return summary('warning', awayLabel, awayLine);
  // No call has ended yet since the agent started: not known to be online with the server.
  if (snapshot.connection.state === 'connecting')
    return { ...summary('ok', 'Connecting to the server…', 'Connecting to the server…'), tone: 'idle' };
  const passing = total === 0 ? 'No checks assigned yet' : `All ${plural(total, 'check')} passing`;
  if (backlogStuck(snapshot) || snapshot.problems.some((p) => attentionProblems.has(p.kind)))
    return summary('warning', 'Needs attention', passing);
  return summary('ok', 'Online', passing);
}
