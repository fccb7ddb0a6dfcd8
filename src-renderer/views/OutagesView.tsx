// Outages: the times this agent could not do its work, of two kinds, newest first: this machine
// offline (it reached none of its connectivity targets) and the server unreachable (the machine's
// network worked, the uptime server did not answer). Both lists are read again whenever the
// connectivity or the connection changes, so a new or ended outage shows at once. "Reached the
// server every time" is said only when neither kind was ever recorded and none is happening.
import type { OutageRecord, ServerAbsence } from '../../src-main/ipc/contract.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { QueryStatus } from '../components/QueryStatus.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { useEffect, useState } from 'react';
import { absenceBacklog, absenceCause, absenceEnd, awaitsDrain } from '../events/absence-text.ts';
import { clock } from '../events/event-text.ts';
import { count, dateTime, duration, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useNow } from '../state/use-now.ts';
import { useQuery } from '../state/use-query.ts';

/** One row of the table: either kind, with what it says beyond its times. */
interface Row {
  key: string;
  kind: 'offline' | 'server';
  startedAt: string;
  endedAt: string | null;
  durationSec: number | null;
  detail: string;
}

const kindLabel: Record<Row['kind'], string> = {
  offline: 'This machine was offline',
  server: 'Server unreachable',
};

const offlineRow = (o: OutageRecord): Row => ({
  key: `offline-${o.started_at}`,
  kind: 'offline',
  startedAt: o.started_at,
  endedAt: o.ended_at,
  durationSec: o.duration_sec,
  detail: 'No connectivity target answered; check runs that got no answer meanwhile are kept as skipped.',
});

/** Whether this machine was offline during part of the absence (its outage explains it). */
const overlaps = (a: ServerAbsence, outages: readonly OutageRecord[]): boolean =>
  outages.some((o) => o.started_at <= (a.ended_at ?? '9999') && (o.ended_at ?? '9999') >= a.started_at);

const serverRow = (a: ServerAbsence, outages: readonly OutageRecord[]): Row => ({
  key: `server-${a.started_at}`,
  kind: 'server',
  startedAt: a.started_at,
  endedAt: a.ended_at,
  durationSec: a.duration_sec,
  detail: [
    overlaps(a, outages) ? 'This machine was offline during part of it.' : '',
    sentence(`the last time it was tried, ${absenceCause(a.last_failure)}`),
    absenceBacklog(a, clock),
    absenceEnd(a),
  ]
    .filter((part) => part !== '')
    .join(' '),
});

function lasted(row: Row, now: number): string {
  const seconds = row.durationSec ?? (now - Date.parse(row.startedAt)) / 1000;
  return row.endedAt !== null && seconds < 1 ? 'under a second' : duration(seconds);
}

export function OutagesView() {
  const { snapshot } = useAgent();
  const now = useNow(1_000);
  const online = snapshot?.connectivity.online;
  const offlineSince = snapshot?.connectivity.offlineSince;
  const connection = snapshot?.connection;
  const { state: outages, retry: retryOutages } = useQuery('outages:list', {}, [online, offlineSince]);
  // While the backlog of an ended absence drains, its row follows the count.
  const [draining, setDraining] = useState(false);
  const { state: absences, retry: retryAbsences } = useQuery('server-absences:list', {}, [
    connection?.state,
    connection?.since,
    draining ? snapshot?.outbox.unsent : undefined,
  ]);
  useEffect(() => setDraining(absences.kind === 'ready' && absences.value.some(awaitsDrain)), [absences]);

  if (snapshot === undefined) return null;
  const ready = outages.kind === 'ready' && absences.kind === 'ready';
  const rows: Row[] = ready
    ? [...outages.value.map(offlineRow), ...absences.value.map((a) => serverRow(a, outages.value))].sort((a, b) =>
        b.startedAt.localeCompare(a.startedAt),
      )
    : [];
  // Never claim the server was always reached while it is not being reached.
  const noneEver = ready && rows.length === 0 && online !== false && connection?.state !== 'unreachable';
  return (
    <ViewFrame
      title="Outages"
      intro="Times this agent could not deliver: when this machine reached none of its connectivity targets (the server, plus any you added in Settings), and when the uptime server could not be reached (the server down or refusing connections, a proxy in the way, or this machine offline). Results wait here during both and are sent after. Check runs that got no answer while this machine was offline are kept as skipped."
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
        state={outages}
        loading="Loading the outage history…"
        failed="The outage history could not be loaded"
        retry={retryOutages}
      />
      <QueryStatus
        state={absences}
        loading="Loading the times the server could not be reached…"
        failed="The times the server could not be reached could not be loaded"
        retry={retryAbsences}
      />
      {noneEver ? (
        <EmptyState title="No outages recorded">
          <p>
            This machine has reached the server every time it tried. If it loses its connection, or the server stops
            answering, the outage appears here with its start, end and length.
          </p>
        </EmptyState>
      ) : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table className="table outages-table" data-testid="outages-table">
            <caption className="visually-hidden">Outages of this machine and of the server, newest first</caption>
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
                <th scope="col" className="num">
                  Duration
                </th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} data-kind={row.kind} className={row.endedAt === null ? 'ongoing' : undefined}>
                  <th scope="row" className="col-what">
                    {kindLabel[row.kind]}
                  </th>
                  <td className="col-start">{dateTime(row.startedAt)}</td>
                  <td className="col-end">
                    {row.endedAt === null ? <strong className="bad-text">ongoing</strong> : dateTime(row.endedAt)}
                  </td>
                  <td className="num col-duration">{lasted(row, now)}</td>
                  <td className="col-details">{row.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </ViewFrame>
  );
}
