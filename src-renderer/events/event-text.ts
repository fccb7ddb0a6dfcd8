// An event of the log in words, the same way in the detail pane, the Events view and the
// overview: "Shop down 10:28 — status 503 → up 10:41, down for 13 min".
import type { AgentEvent } from '../../src-main/ipc/contract.ts';
import { duration, sentence, timeOfDay } from '../format.ts';
import { absenceBacklog, absenceCause, absenceEnd } from './absence-text.ts';

/** An entry of the agent's event log, as the bridge delivers it. */
export type EventItem = AgentEvent;

const agentWords: Record<string, { what: string; ongoing: string }> = {
  offline: { what: 'Offline', ongoing: 'offline' },
  'key-rejected': { what: 'API key refused by the server', ongoing: 'the key is refused' },
  'monitor-disabled': { what: 'Monitor disabled on the server', ongoing: 'disabled' },
  'clock-skew': { what: 'Clock off from the server', ongoing: 'the clock is off' },
  'results-dropped': { what: 'Unsent results dropped', ongoing: 'dropping' },
  'store-full': { what: 'Disk full', ongoing: 'the disk is full' },
};

export function clock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeOfDay(date.getTime());
}

export function sinceWhen(iso: string, now: number): string {
  const started = Date.parse(iso);
  const sameDay = new Date(started).toDateString() === new Date(now).toDateString();
  const at = sameDay
    ? clock(iso)
    : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `for ${duration((now - started) / 1000)} (since ${at})`;
}

export interface EventText {
  title: string;
  detail: string;
  tone: 'bad' | 'ok' | 'warn' | 'info';
}

/** "went down 5 times, down 1 min 40 s in all" */
export function patternWords(pattern: NonNullable<EventItem['pattern']>): string {
  const times = pattern.downs === 1 ? 'once' : `${pattern.downs} times`;
  return pattern.downSec > 0 ? `went down ${times}, ${duration(pattern.downSec)} down in all` : `went down ${times}`;
}

/** A flapping check: one card for all its changes, until it settled. */
function flappingText(event: EventItem, now: number): EventText {
  const name = event.checkName === '' ? 'A check' : event.checkName;
  const pattern = event.pattern === undefined ? '' : `It ${patternWords(event.pattern)}. `;
  if (event.endedAt === undefined)
    return {
      title: `${name} keeps going down and up ${sinceWhen(event.startedAt, now)}`,
      detail: `${pattern}Each change is not listed or notified; you are told if it stays down. Open the check to see its runs.`,
      tone: 'warn',
    };
  const ended = event.endReason === undefined ? '' : sentence(event.endReason);
  return {
    title: `${name} kept going down and up ${clock(event.startedAt)}–${clock(event.endedAt)}`,
    detail: `${pattern}${ended}`.trim(),
    tone: 'info',
  };
}

/** The server could not be reached: one card for the whole absence, from its recorded facts. */
function absenceText(event: EventItem, now: number): EventText {
  const absence = event.absence;
  const times = event.absences ?? 1;
  // Several absences close together are one entry (the agent continues it): say it came and went.
  const onOff = times > 1 ? `It answered now and then: it could not be reached ${times} times. ` : '';
  const why = absence === undefined ? '' : `The last time it was tried, ${absenceCause(absence.last_failure)}. `;
  const backlog = absence === undefined ? '' : absenceBacklog(absence, clock);
  if (event.endedAt === undefined)
    return {
      title: `The server cannot be reached ${sinceWhen(event.startedAt, now)}`,
      detail: `${onOff}${why}${backlog}`.trim(),
      tone: 'bad',
    };
  const seconds = (Date.parse(event.endedAt) - Date.parse(event.startedAt)) / 1000;
  const lasted = seconds < 1 ? 'under a second' : duration(seconds);
  const ended = absence === undefined ? '' : absenceEnd(absence);
  return {
    title: `Server unreachable ${times > 1 ? 'on and off ' : ''}${clock(event.startedAt)}–${clock(event.endedAt)} (${lasted})`,
    detail: `${onOff}${why}${backlog} ${ended}`.trim(),
    tone: 'info',
  };
}

export function eventText(event: EventItem, now: number): EventText {
  if (event.kind === 'server-unreachable') return absenceText(event, now);
  const lasted =
    event.endedAt === undefined
      ? undefined
      : duration((Date.parse(event.endedAt) - Date.parse(event.startedAt)) / 1000);
  if (event.kind === 'flapping') return flappingText(event, now);
  if (event.kind === 'down') {
    const name = event.checkName === '' ? 'A check' : event.checkName;
    if (event.endedAt === undefined) {
      return { title: `${name} down ${sinceWhen(event.startedAt, now)}`, detail: sentence(event.reason), tone: 'bad' };
    }
    const back = event.endReason === undefined ? '' : ` (${event.endReason})`;
    return {
      title: `${name} down ${clock(event.startedAt)} → up ${clock(event.endedAt)}, down for ${lasted ?? ''}`,
      detail: sentence(`${event.reason}; back${back}`),
      tone: 'ok',
    };
  }
  if (event.kind === 'test-run') {
    return {
      title: `${event.checkName === '' ? 'A check' : event.checkName}: test run at ${clock(event.startedAt)}`,
      detail: sentence(event.reason),
      tone: 'info',
    };
  }
  const words = agentWords[event.kind] ?? { what: event.kind, ongoing: event.kind };
  if (event.endedAt === undefined)
    return { title: `${words.what} ${sinceWhen(event.startedAt, now)}`, detail: sentence(event.reason), tone: 'bad' };
  if (event.endedAt === event.startedAt)
    return { title: `${words.what} at ${clock(event.startedAt)}`, detail: sentence(event.reason), tone: 'warn' };
  return {
    title: `${words.what} ${clock(event.startedAt)}–${clock(event.endedAt)} (${lasted ?? ''})`,
    detail: sentence(event.reason),
    tone: 'info',
  };
}
