// A list of events, newest first, each a sentence with its time; a check's name links to it. A
// flapping check's card also draws its failing stretches on a strip (the words say the same).
import { dateTime } from '../format.ts';
import { useNavigation } from '../state/navigation.tsx';
import { eventText, type EventItem } from './event-text.ts';

/** The latest failing stretches (red) between the first of them and the end (or now). */
function FlapStrip({ pattern, endMs }: { pattern: NonNullable<EventItem['pattern']>; endMs: number }) {
  const fromMs = Date.parse(pattern.recent[0]?.from ?? '');
  const span = Math.max(1, endMs - fromMs);
  const at = (ms: number): number => Math.min(100, Math.max(0, ((ms - fromMs) / span) * 100));
  return (
    <span className="flap-strip" aria-hidden="true">
      {pattern.recent.map((stretch) => {
        const left = at(Date.parse(stretch.from));
        const right = at(stretch.to === undefined ? endMs : Date.parse(stretch.to));
        return (
          <span
            key={stretch.from}
            className="flap-down"
            style={{ left: `${left}%`, width: `${Math.max(0.8, right - left)}%` }}
          />
        );
      })}
    </span>
  );
}

export function EventList({
  events,
  now,
  label,
  linkChecks = true,
}: {
  events: readonly EventItem[];
  now: number;
  label: string;
  linkChecks?: boolean;
}) {
  const { navigate } = useNavigation();
  return (
    <ol className="events" aria-label={label}>
      {events.map((event) => {
        const text = eventText(event, now);
        return (
          <li key={event.id} className={`event event-${text.tone}`}>
            <span className="event-title">{text.title}</span>
            <span className="event-detail">{text.detail}</span>
            {event.pattern === undefined || event.pattern.recent.length === 0 ? null : (
              <FlapStrip
                pattern={event.pattern}
                endMs={event.endedAt === undefined ? now : Date.parse(event.endedAt)}
              />
            )}
            <span className="event-foot">
              <time dateTime={event.startedAt} className="muted">
                {dateTime(event.startedAt)}
              </time>
              {linkChecks && event.checkGuid !== '' ? (
                <button
                  type="button"
                  className="link"
                  onClick={() => navigate({ view: 'checks', guid: event.checkGuid })}
                >
                  Open {event.checkName === '' ? 'the check' : event.checkName}
                </button>
              ) : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
