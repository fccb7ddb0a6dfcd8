// Events: every state change of the checks and of the agent, newest first, from the persisted
// log — the same log the tray and the desktop notifications are told from. Reloaded when the
// agent announces a change; older events on request. A check that is down right now stays on
// top (longest first) whatever happened since; a flapping check is one card (the agent folds
// its changes into it).
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { useCallback, useEffect, useState } from 'react';
import type { AgentEvent } from '../../src-main/ipc/contract.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { EventList } from '../events/EventList.tsx';
import { awaitsDrain } from '../events/absence-text.ts';
import { sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useNow } from '../state/use-now.ts';

const pageSize = 100;
type Filter = 'all' | 'checks' | 'agent';
const filters: { value: Filter; label: string }[] = [
  { value: 'all', label: 'Checks and agent' },
  { value: 'checks', label: 'Checks only' },
  { value: 'agent', label: 'Agent only' },
];

/** A check down right now: kept on top of the list. */
const ongoingDown = (e: AgentEvent): boolean => e.kind === 'down' && e.endedAt === undefined;

type Loaded =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; events: AgentEvent[]; more: boolean };

export function EventsView() {
  const { bridge, snapshot } = useAgent();
  const now = useNow(15_000);
  const [filter, setFilter] = useState<Filter>('all');
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [limit, setLimit] = useState(pageSize);
  // A change of what is down or of the agent's state means a new event: read the log again.
  const changeKey =
    snapshot === undefined
      ? ''
      : `${snapshot.checks
          .filter((c) => c.health === 'down' || c.flapping !== undefined)
          .map((c) => `${c.guid}${c.flapping === undefined ? '' : '~'}`)
          .join(',')}|${snapshot.connectivity.online}|${snapshot.auth}|${snapshot.connection.state}|${
          // While the backlog of a server absence drains, its card follows the count.
          loaded.kind === 'ready' && loaded.events.some((e) => e.absence !== undefined && awaitsDrain(e.absence))
            ? snapshot.outbox.unsent
            : ''
        }`;

  const load = useCallback(async (): Promise<void> => {
    const result = await bridge.invoke('events:list', { limit: limit + 1 });
    setLoaded(
      result.ok
        ? { kind: 'ready', events: result.value.slice(0, limit), more: result.value.length > limit }
        : { kind: 'error', message: ipcErrorWords(result.error) },
    );
  }, [bridge, limit]);

  useEffect(() => {
    void load();
  }, [load, changeKey]);
  useEffect(() => bridge.on('checks:transition', () => void load()), [bridge, load]);

  const kept =
    loaded.kind === 'ready'
      ? loaded.events.filter((e) => filter === 'all' || (filter === 'agent') === (e.checkGuid === ''))
      : [];
  const shown = [
    ...kept.filter(ongoingDown).sort((a, b) => a.startedAt.localeCompare(b.startedAt)),
    ...kept.filter((e) => !ongoingDown(e)),
  ];

  return (
    <ViewFrame
      title="Events"
      intro="When each check went down and came back, and what happened to the agent (offline, the server unreachable, key refused…), newest first. Checks down right now come first; a check that keeps going down and up has one entry."
    >
      <div className="toolbar">
        <label className="field inline">
          <span>Show</span>
          <select value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
            {filters.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {loaded.kind === 'loading' ? <Spinner label="Loading events…" /> : null}
      {loaded.kind === 'error' ? (
        <Notice
          tone="error"
          title="The events could not be loaded"
          actions={
            <button type="button" onClick={() => void load()}>
              Try again
            </button>
          }
        >
          {sentence(loaded.message)}
        </Notice>
      ) : null}
      {loaded.kind === 'ready' && shown.length === 0 ? (
        <EmptyState title="No events yet">
          <p>
            A check going down or coming back, and the agent going offline, not reaching the server or being refused by
            it, will be listed here.
          </p>
        </EmptyState>
      ) : null}
      {shown.length > 0 ? <EventList events={shown} now={now} label="Events, newest first" /> : null}
      {loaded.kind === 'ready' && loaded.more ? (
        <div className="button-row">
          <button type="button" onClick={() => setLimit((n) => n + pageSize)}>
            Show older events
          </button>
        </div>
      ) : null}
    </ViewFrame>
  );
}
