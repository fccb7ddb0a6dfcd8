// Which view is open. Views ask for another one (a problem's action button, a notification
// click via the 'app:navigate' event) through navigate().
import { createContext, useContext } from 'react';
import type { ViewName } from '../../src-main/ipc/contract.ts';

/** Every view the window has (the contract's list: the tray and notifications name them too). */
export type RouteView = ViewName;

export interface Place {
  view: RouteView;
  /** Checks: the check to select. */
  guid?: string;
  /** Enroll: start with the reclaim section open and this id filled in. */
  reclaimId?: string;
}

export interface Navigation {
  place: Place;
  navigate: (place: Place) => void;
  /** A one-off message for the next view (e.g. "Enrolled as ..."). */
  flash: string | undefined;
  setFlash: (message: string | undefined) => void;
}

export const NavigationContext = createContext<Navigation | undefined>(undefined);

export function useNavigation(): Navigation {
  const value = useContext(NavigationContext);
  if (value === undefined) throw new Error('useNavigation must be used inside <NavigationContext>');
  return value;
}
