// The tray icon's image files: one per agent condition, per platform and panel shade.
import { agentConditions, type AgentCondition } from '../ipc/agent-summary.ts';

/** The tray icon shows the agent's condition (ipc/agent-summary.ts); one image per condition. */
export const trayStates = agentConditions;
export type TrayState = AgentCondition;

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
