// How times, durations and figures read in the window: short, and in the user's locale.
import { timeOfDay } from '../src-main/ipc/time-of-day.ts';

export function ago(iso: string | undefined, now: number): string {
  if (iso === undefined || iso === '') return 'never';
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return 'unknown';
  if (seconds < 5) return 'just now';
  return `${duration(seconds)} ago`;
}

export function duration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 || m >= 10 ? `${m} min` : `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

export function dateTime(iso: string | undefined): string {
  if (iso === undefined || iso === '') return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export { timeOfDay };

const dayOf = (ms: number): string => new Date(ms).toDateString();

/** A moment near now, short: "Today 17:13", "Yesterday 23:40", else "Mon 23 Nov, 17:13" (in the user's locale). */
export function shortWhen(ms: number, nowMs: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (dayOf(ms) === dayOf(nowMs)) return `Today ${timeOfDay(ms)}`;
  if (dayOf(ms) === dayOf(nowMs - 86_400_000)) return `Yesterday ${timeOfDay(ms)}`;
  const day = new Date(ms).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  return `${day}, ${timeOfDay(ms)}`;
}

export const percent = (value: number | undefined): string =>
  value === undefined ? '—' : `${value >= 99.95 || value === 0 ? value.toFixed(0) : value.toFixed(1)} %`;

export const milliseconds = (value: number | undefined): string =>
  value === undefined || value <= 0 ? '—' : `${value} ms`;

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function interval(seconds: number): string {
  return seconds < 60 ? `${seconds} s` : duration(seconds);
}

/** A message from the agent as a sentence: capital first letter, final full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  // "(status 503)" at the end still needs its full stop; "(it was.)" has one.
  return /[.!?]\)?$/.test(capital) ? capital : `${capital}.`;
}

/** How often this monitor runs a check: "every 30 s, shared by 3 monitors" for a shared one. */
export function runsEvery(check: { intervalSec: number; effectiveIntervalSec: number; sharedBy: number }): string {
  if (check.sharedBy <= 1) return `every ${interval(check.intervalSec)}`;
  return `every ${interval(check.effectiveIntervalSec)} here, shared by ${check.sharedBy} monitors (each ${interval(check.intervalSec)} one of them runs it)`;
}
