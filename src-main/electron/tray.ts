// The tray icon: its image and tooltip follow the agent, and every action lives in its context
// menu (on Linux a click on the icon may never arrive, and GNOME shows only the menu).
import type { MenuItemConstructorOptions } from 'electron';
import type { Logger } from '../agent/base/log.ts';
import type { AgentSnapshot, RunResult } from '../ipc/contract.ts';
import { onEvent, type EventHub } from '../ipc/events.ts';
import type { InvokeHandler } from '../ipc/handlers.ts';
import { summarizeAgent } from '../ipc/agent-summary.ts';
import { callFailureWords, commandCall, isServerCommand } from '../ipc/api-failure-words.ts';
import { ipcErrorWords } from '../ipc/ipc-error-words.ts';
import type { TrayState } from './tray-state.ts';
import type { WindowController } from './window.ts';
import { trayCheckItems } from './tray-checks.ts';

/**
 * The parts of Electron's `Tray` used here. The menu goes in as a template; the entry builds the
 * Menu (Menu.buildFromTemplate), which keeps this module free of Electron objects.
 */
export interface TrayLike {
  setImage(image: string): void;
  setToolTip(text: string): void;
  setContextMenu(template: MenuItemConstructorOptions[]): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayDeps {
  createTray(icon: string): TrayLike;
  /** The image file for a state (depends on the platform and the panel's shade). */
  iconPath(state: TrayState): string;
  /** The shared IPC implementation: the menu runs the same commands as the window. */
  invoke: InvokeHandler;
  snapshot(): AgentSnapshot;
  hub: EventHub;
  window: Pick<WindowController, 'show'>;
  launchAtLogin: { get(): boolean; set(enabled: boolean): Promise<void> };
  quit(): void;
  /** Tells the user how a menu action went wrong (a notification). */
  report(title: string, body: string): void;
  log: Logger;
}

export interface TrayController {
  /** Re-applies image, tooltip and menu (after a theme or setting change). */
  refresh(): void;
  destroy(): void;
}

export function setupTray(deps: TrayDeps): TrayController {
  let snapshot = deps.snapshot();
  let shown: { state?: TrayState; tooltip?: string; menu?: string } = {};
  const tray = deps.createTray(deps.iconPath(summarizeAgent(snapshot).condition));

  function run(
    channel: 'agent:pause' | 'agent:resume' | 'agent:sync-now' | 'agent:upload-now',
    what: string,
  ): () => void {
    return () => {
      deps.invoke(channel, {}).then(
        (result) => {
          if (!result.ok) deps.report(`${what} failed`, ipcErrorWords(result.error));
          // sync-now and upload-now answer with a RunResult; a failed run is told, a good one not,
          // in words from its kind and cause (the agent's log has the library's text).
          const value = result.ok ? (result.value as Partial<RunResult>) : undefined;
          if (isServerCommand(channel) && value?.ok === false && value.failure !== undefined)
            deps.report(`${what} failed`, callFailureWords(value.failure, commandCall[channel]));
        },
        (error: unknown) => deps.log.error({ err: error, channel }, 'tray action failed'),
      );
    };
  }

  /** The checks that are down or flapping, each opening its detail (tray-checks.ts). */
  function checkItems(): MenuItemConstructorOptions[] {
    const items: MenuItemConstructorOptions[] = trayCheckItems(snapshot).map(({ label, guid }) => ({
      label,
      click: () => deps.window.show(guid === undefined ? { view: 'checks' } : { view: 'checks', guid }),
    }));
    return items.length === 0 ? [] : [{ type: 'separator' }, ...items];
  }

  function template(): MenuItemConstructorOptions[] {
    const enrolled = snapshot.enrolled;
    return [
      { label: summarizeAgent(snapshot).line, enabled: false },
      ...checkItems(),
      { type: 'separator' },
      { label: 'Open Uptime Agent', click: () => deps.window.show() },
      snapshot.paused
        ? { label: 'Resume checks', enabled: enrolled, click: run('agent:resume', 'Resuming checks') }
        : { label: 'Pause checks', enabled: enrolled, click: run('agent:pause', 'Pausing checks') },
      { label: 'Sync now', enabled: enrolled, click: run('agent:sync-now', 'Sync') },
      { label: 'Upload now', enabled: enrolled, click: run('agent:upload-now', 'Upload') },
      { type: 'separator' },
      {
        label: 'Launch at login',
        type: 'checkbox',
        checked: deps.launchAtLogin.get(),
        click: () => {
          const enable = !deps.launchAtLogin.get();
          deps.launchAtLogin.set(enable).then(
            () => apply(),
            (error: unknown) => {
              // The system's own text goes to the log; the user reads what to do.
              deps.log.warn({ err: error }, 'launch at login could not be changed');
              deps.report(
                'Launch at login could not be changed',
                'Try again, or change it in your system’s startup settings.',
              );
              apply();
            },
          );
        },
      },
      { type: 'separator' },
      { label: 'Quit Uptime Agent', click: () => deps.quit() },
    ];
  }

  function apply(): void {
    const { condition: state, tooltip } = summarizeAgent(snapshot);
    if (state !== shown.state) tray.setImage(deps.iconPath(state));
    if (tooltip !== shown.tooltip) tray.setToolTip(tooltip);
    const items = template();
    // Setting a menu again closes it on some panels: only when something in it changed.
    const menuKey = JSON.stringify(items.map(({ label, enabled, checked }) => [label, enabled, checked]));
    if (menuKey !== shown.menu) tray.setContextMenu(items);
    shown = { state, tooltip, menu: menuKey };
  }

  tray.on('click', () => deps.window.show());
  apply();
  const unsubscribe = onEvent(deps.hub, 'agent:state-changed', (next) => {
    snapshot = next;
    apply();
  });

  return {
    refresh() {
      snapshot = deps.snapshot();
      shown = {};
      apply();
    },
    destroy() {
      unsubscribe();
      tray.destroy();
    },
  };
}
