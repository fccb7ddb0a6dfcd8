// What the tray shows, as pure functions of the agent's snapshot: one icon state and one line of
// text (the tooltip, and the first menu item, since many Linux panels show no tooltips).
import type { AgentSnapshot } from '../ipc/contract.ts';
import { shellDefaults } from './shell-defaults.ts';

export const trayStates = ['not-enrolled', 'ok', 'warning', 'error', 'paused'] as const;
export type TrayState = (typeof trayStates)[number];

/** Problems that need the user but leave the checks running: a warning, not an error. */
const warningProblems = new Set(['private-missing', 'private-file', 'rejected-results', 'results-dropped']);

function backlogStuck(snapshot: AgentSnapshot, backlogWarnAfterMs: number): boolean {
  const oldest = snapshot.outbox.oldestRanAt;
  if (snapshot.outbox.unsent === 0 || oldest === undefined || oldest === '') return false;
  return Date.parse(snapshot.takenAt) - Date.parse(oldest) > backlogWarnAfterMs;
}

export function trayState(snapshot: AgentSnapshot, backlogWarnAfterMs = shellDefaults.backlogWarnAfterMs): TrayState {
  if (!snapshot.enrolled) return 'not-enrolled';
  // The server refuses this monitor: nothing gets through until the user acts, whatever else holds.
  if (snapshot.auth !== 'ok') return 'error';
  if (snapshot.paused) return 'paused';
  if (
    snapshot.counts.down > 0 ||
    !snapshot.connectivity.online ||
    backlogStuck(snapshot, backlogWarnAfterMs) ||
    snapshot.problems.some((p) => warningProblems.has(p.kind))
  ) {
    return 'warning';
  }
  return 'ok';
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** e.g. "12 checks · 1 failing · 0 unsent · offline". */
export function trayTooltip(snapshot: AgentSnapshot): string {
  if (!snapshot.enrolled) return 'Uptime Agent: not enrolled. Open it to enroll this computer.';
  const parts = [plural(snapshot.counts.total, 'check'), `${snapshot.counts.down} failing`, `${snapshot.outbox.unsent} unsent`];
  if (snapshot.auth === 'key-rejected') parts.push('key rejected: enroll again');
  if (snapshot.auth === 'monitor-disabled') parts.push('monitor disabled on the server');
  if (!snapshot.connectivity.online) parts.push('offline');
  if (snapshot.paused) parts.push('paused');
  return parts.join(' · ');
}

export type PanelShade = 'light' | 'dark';

/**
 * The icon file (in build/tray) for a state. macOS gets Template images, which the menu bar
 * tints itself; elsewhere the glyph must contrast with the panel. Electron picks the @2x file
 * beside the one named here on high-density displays.
 */
export function trayIconFile(state: TrayState, platform: NodeJS.Platform, panel: PanelShade): string {
  return platform === 'darwin' ? `${state}Template.png` : `${state}-${panel}.png`;
}

/**
 * GNOME's top bar is dark in both its light and dark styles, and most Linux panels follow; on
 * Windows the taskbar follows the system theme.
 */
export function panelShade(platform: NodeJS.Platform, darkTheme: boolean): PanelShade {
  if (platform === 'linux') return 'dark';
  return darkTheme ? 'dark' : 'light';
}
