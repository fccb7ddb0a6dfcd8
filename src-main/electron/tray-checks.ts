// The checks the tray's menu names, pure so that the list is tested without Electron: those down
// first (what a person opens the menu for), then those flapping but up right now, each once; a
// long list ends in "and N more…", which opens the Checks view.
import type { AgentSnapshot } from '../ipc/contract.ts';

/** A menu line: with a guid it opens that check's detail; without, the Checks view. */
export interface TrayCheckItem {
  label: string;
  guid?: string;
}

/** More than this many lines would push the menu's actions off a small screen. */
export const maxTrayCheckItems = 8;

export function trayCheckItems(snapshot: AgentSnapshot): TrayCheckItem[] {
  const down = snapshot.checks.filter((c) => c.health === 'down');
  const flapping = snapshot.checks.filter((c) => c.health !== 'down' && c.flapping !== undefined);
  const items: TrayCheckItem[] = [
    ...down.map((c) => ({
      label: c.flapping === undefined ? `${c.name} is down` : `${c.name} is down (keeps going down and up)`,
      guid: c.guid,
    })),
    ...flapping.map((c) => ({ label: `${c.name} keeps going down and up`, guid: c.guid })),
  ];
  if (items.length <= maxTrayCheckItems) return items;
  return [...items.slice(0, maxTrayCheckItems), { label: `and ${items.length - maxTrayCheckItems} more…` }];
}
