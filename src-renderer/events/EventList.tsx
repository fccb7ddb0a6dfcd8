// A list of events, newest first, each a sentence with its time; a check's name links to it.
import { dateTime } from '../format.ts';
import { useNavigation } from '../state/navigation.tsx';
import { eventText, type EventItem } from './event-text.ts';

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
