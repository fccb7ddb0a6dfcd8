// Outages: when this machine could reach none of its connectivity targets. The list is read
// again whenever the connectivity changes, so a new or ended outage shows at once.
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { QueryStatus } from '../components/QueryStatus.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { count, dateTime, duration } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useNow } from '../state/use-now.ts';
import { useQuery } from '../state/use-query.ts';

export function OutagesView() {
  const { snapshot } = useAgent();
  const now = useNow(1_000);
  const online = snapshot?.connectivity.online;
  const offlineSince = snapshot?.connectivity.offlineSince;
  const { state: list, retry } = useQuery('outages:list', {}, [online, offlineSince]);

  if (snapshot === undefined) return null;
  return (
    <ViewFrame
      title="Outages"
      intro="An outage is a time when this machine reached none of its connectivity targets (the server, plus any you added in Settings). Check runs that got no answer during an outage are kept as skipped; runs where the target answered are reported as usual."
    >
      {online === false ? (
        <Notice tone="error" title="Offline now">
          No connectivity target has answered since {dateTime(offlineSince)} (
          {duration((now - Date.parse(offlineSince ?? '')) / 1000)}). Results are kept here and sent when the connection
          is back; nothing needs doing unless it lasts.
        </Notice>
      ) : null}
      {snapshot.skippedOffline > 0 ? (
        <p className="muted">
          {count(snapshot.skippedOffline, 'failed run was', 'failed runs were')} kept as skipped while offline since the
          agent started.
        </p>
      ) : null}
      <QueryStatus
        state={list}
        loading="Loading the outage history…"
        failed="The outage history could not be loaded"
        retry={retry}
      />
      {list.kind === 'ready' && list.value.length === 0 ? (
        <EmptyState title="No outages recorded">
          <p>
            This machine has reached the server every time it tried. If it loses its connection, the outage appears here
            with its start, end and length.
          </p>
        </EmptyState>
      ) : null}
      {list.kind === 'ready' && list.value.length > 0 ? (
        <div className="table-wrap">
          <table className="table outages-table">
            <caption className="visually-hidden">Connectivity outages, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
                <th scope="col" className="num">
                  Duration
                </th>
              </tr>
            </thead>
            <tbody>
              {list.value.map((o) => (
                <tr key={o.started_at} className={o.ended_at === null ? 'ongoing' : undefined}>
                  <td>{dateTime(o.started_at)}</td>
                  <td>{o.ended_at === null ? <strong className="bad-text">ongoing</strong> : dateTime(o.ended_at)}</td>
                  <td className="num">
                    {o.duration_sec === null
                      ? duration((now - Date.parse(o.started_at)) / 1000)
                      : duration(o.duration_sec)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </ViewFrame>
  );
}
