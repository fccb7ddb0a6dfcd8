// Desktop notifications from agent events, as the planner decides them; a click opens the
// window on what the notification is about.
import type { Logger } from '../agent/base/log.ts';
import { onEvent, type EventHub } from '../ipc/events.ts';
import { createNotificationPlanner, type Note, type PlannerOptions } from './notification-planner.ts';
import { shellDefaults } from './shell-defaults.ts';
import type { WindowController } from './window.ts';

/** The parts of an Electron `Notification` used here. */
export interface NotificationLike {
  on(event: 'click' | 'close', listener: () => void): unknown;
  show(): void;
}

export interface NotificationDeps {
  hub: EventHub;
  /** `new Notification(options)`; undefined where the system has no notifications. */
  createNotification(options: { title: string; body: string }): NotificationLike | undefined;
  /** The user's notifications setting, read at the moment of showing. */
  enabled(): boolean;
  window: Pick<WindowController, 'show'>;
  log: Logger;
  options?: PlannerOptions;
}

export function setupNotifications(deps: NotificationDeps): () => void {
  const planner = createNotificationPlanner(deps.options ?? shellDefaults);
  // Electron drops the click handler of a notification that got garbage-collected: keep them.
  const live = new Set<NotificationLike>();
  let timer: NodeJS.Timeout | undefined;

  function show(notes: Note[]): void {
    if (notes.length === 0 || !deps.enabled()) return;
    for (const note of notes) {
      const notification = deps.createNotification({ title: note.title, body: note.body });
      if (notification === undefined) return;
      live.add(notification);
      notification.on('click', () => {
        live.delete(notification);
        deps.window.show(note.navigate);
      });
      notification.on('close', () => live.delete(notification));
      notification.show();
      deps.log.info({ title: note.title }, 'notification shown');
    }
  }

  function scheduleDue(): void {
    clearTimeout(timer);
    const at = planner.nextDueAt();
    if (at === undefined) return;
    timer = setTimeout(
      () => {
        show(planner.due(Date.now()));
        scheduleDue();
      },
      Math.max(0, at - Date.now()),
    );
  }

  const offTransitions = onEvent(deps.hub, 'checks:transition', (transitions) => {
    show(planner.transitions(transitions, Date.now()));
    scheduleDue();
  });
  const offSnapshots = onEvent(deps.hub, 'agent:state-changed', (snapshot) => show(planner.snapshot(snapshot)));
  return () => {
    offTransitions();
    offSnapshots();
    clearTimeout(timer);
    live.clear();
  };
}
