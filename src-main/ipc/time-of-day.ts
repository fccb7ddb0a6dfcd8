// The one way a time of day is written for a person, shared by the tray (main process) and the
// window (which bundles this file): the user's locale and clock, no leading zero where the locale
// has none ("5:13 PM", "17:13"), so the pill, the Overview and Events never write one moment two ways.

/** A time of day in the user's locale and clock ("17:13", or "5:13 PM" where that is the custom). */
export function timeOfDay(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}
