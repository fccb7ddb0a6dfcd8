// Outages: when this machine could reach none of its connectivity targets. The list is read
// again whenever the connectivity changes, so a new or ended outage shows at once.
import { useEffect, useState } from 'react';
import type { OutageRecord } from '../../src-main/ipc/contract.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { count, dateTime, duration, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useNow } from '../state/use-now.ts';

type ListState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; outages: OutageRecord[] };

export function OutagesView() {
  const { bridge, snapshot } = useAgent();
  const now = useNow(1_000);
  const [list, setList] = useState<ListState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const online = snapshot?.connectivity.online;
  const offlineSince = snapshot?.connectivity.offlineSince;

  useEffect(() => {
    let live = true;
    void bridge.invoke('outages:list', {}).then((result) => {
      if (live) setList(result.ok ? { kind: 'ready', outages: result.value } : { kind: 'error', message: result.error });
    });
    return () => {
      live = false;
    };
  }, [bridge, online, offlineSince, attempt]);

  if (snapshot === undefined) return null;
  return (
    <ViewFrame
      title="Outages"
      intro="An outage is a time when this machine reached none of its connectivity targets (the server, plus any you added in Settings). Failed check runs during an outage are kept as skipped, not reported as failures."
    >
      {online === false ? (
        <Notice tone="error" title="Offline now">
          No connectivity target has answered since {dateTime(offlineSince)} ({duration((now - Date.parse(offlineSince ?? '')) / 1000)}). Results are kept
          here and sent when the connection is back; nothing needs doing unless it lasts.
        </Notice>
      ) : null}
      {snapshot.skippedOffline > 0 ? <p className="muted">{count(snapshot.skippedOffline, 'failed run was', 'failed runs were')} kept as skipped while offline since the agent started.</p> : null}
      {list.kind === 'loading' ? <Spinner label="Loading the outage history…" /> : null}
      {list.kind === 'error' ? (
        <Notice tone="error" title="The outage history could not be loaded" actions={<button type="button" onClick={() => setAttempt((n) => n + 1)}>Try again</button>}>
          {sentence(list.message)}
        </Notice>
      ) : null}
      {list.kind === 'ready' && list.outages.length === 0 ? (
        <EmptyState title="No outages recorded">
          <p>This machine has reached the server every time it tried. If it loses its connection, the outage appears here with its start, end and length.</p>
        </EmptyState>
      ) : null}
      {list.kind === 'ready' && list.outages.length > 0 ? (
        <div className="table-wrap">
          <table className="table outages-table">
            <caption className="visually-hidden">Connectivity outages, newest first</caption>
            <thead><tr><th scope="col">Started</th><th scope="col">Ended</th><th scope="col" className="num">Duration</th></tr></thead>
            <tbody>
              {list.outages.map((o) => (
                <tr key={o.started_at} className={o.ended_at === null ? 'ongoing' : undefined}>
                  <td>{dateTime(o.started_at)}</td>
                  <td>{o.ended_at === null ? <strong className="bad-text">ongoing</strong> : dateTime(o.ended_at)}</td>
                  <td className="num">{o.duration_sec === null ? duration((now - Date.parse(o.started_at)) / 1000) : duration(o.duration_sec)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </ViewFrame>
  );
}
