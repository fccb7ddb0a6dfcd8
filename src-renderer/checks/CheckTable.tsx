// The checks table: sortable columns (aria-sort on the header), one button per row to select
// it, and arrow keys to move between rows.
import { useCallback, useRef, useState, type KeyboardEvent } from 'react';
import type { CheckView, HistoryEntry } from '../../src-main/ipc/contract.ts';
import { HealthBadge } from '../components/HealthBadge.tsx';
import { Sparkline } from '../components/Sparkline.tsx';
import { ago, interval, milliseconds, percent, runsEvery } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { beatsOfHistory, beatsOfStates, HeartbeatBar, type Beat } from './HeartbeatBar.tsx';
import type { Sort, SortKey } from './table-model.ts';

const columns: { key: SortKey; label: string; className?: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'type', label: 'Type', className: 'col-type' },
  { key: 'target', label: 'Target', className: 'col-target' },
  { key: 'interval', label: 'Interval', className: 'col-interval' },
  { key: 'last', label: 'Last result', className: 'col-last' },
  { key: 'latency', label: 'Latency', className: 'col-latency' },
  { key: 'uptime', label: 'Uptime', className: 'col-uptime' },
  { key: 'health', label: 'State' },
];

export interface CheckTableProps {
  checks: readonly CheckView[];
  sort: Sort;
  onSort: (key: SortKey) => void;
  selected: string | undefined;
  onSelect: (guid: string) => void;
  now: number;
}

function lastResultText(check: CheckView, now: number): string {
  const last = check.lastResult;
  if (last === undefined) return check.runnable ? 'not yet' : '—';
  const what = last.skipped ? 'skipped' : last.success ? 'ok' : 'failed';
  const status = last.http_status > 0 ? ` ${last.http_status}` : '';
  return `${what}${status}, ${ago(last.ran_at, now)}`;
}

/**
 * A row's heartbeat: the states come with the snapshot; the details (time, latency, error) of
 * each run are loaded from the history the first time someone hovers or focuses the bar.
 */
const rowBeats = 30;

function RowHeartbeat({
  check,
  details,
  onWant,
}: {
  check: CheckView;
  details: HistoryEntry[] | undefined;
  onWant: (guid: string) => void;
}) {
  const states = check.beats;
  if (states === undefined) return null;
  // A table row has room for the latest runs; the detail pane shows all it has.
  let beats: Beat[] = beatsOfStates(states.slice(-rowBeats));
  if (details !== undefined) {
    // The loaded runs replace the bare states from the newest end.
    const loaded = beatsOfHistory(details).slice(-beats.length);
    beats = [...beats.slice(0, beats.length - loaded.length), ...loaded];
  }
  return <HeartbeatBar beats={beats} name={check.name} compact onWantDetails={() => onWant(check.guid)} />;
}

export function CheckTable({ checks, sort, onSort, selected, onSelect, now }: CheckTableProps) {
  const body = useRef<HTMLTableSectionElement>(null);
  const { bridge } = useAgent();
  const [details, setDetails] = useState<Record<string, { lastRun: string | undefined; entries: HistoryEntry[] }>>({});
  const lastRuns = new Map(checks.map((c) => [c.guid, c.lastResult?.ran_at]));
  const want = useCallback(
    (guid: string) => {
      const lastRun = lastRuns.get(guid);
      if (details[guid]?.lastRun === lastRun && details[guid] !== undefined) return;
      void bridge.invoke('checks:history', { guid, limit: 50 }).then((result) => {
        if (result.ok) setDetails((d) => ({ ...d, [guid]: { lastRun, entries: result.value } }));
      });
    },
    [bridge, checks, details],
  );
  const showBeats = checks.some((c) => c.beats !== undefined);

  const moveFocus = (event: KeyboardEvent<HTMLButtonElement>, index: number): void => {
    const delta = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    const buttons = body.current?.querySelectorAll<HTMLButtonElement>('button.row-select');
    const next = buttons?.[Math.min(Math.max(index + delta, 0), buttons.length - 1)];
    next?.focus();
    const guid = next?.dataset.guid;
    if (guid !== undefined) onSelect(guid);
  };

  return (
    <div className="table-wrap checks-wrap">
      <table className="table checks-table">
        <caption className="visually-hidden">Checks of this monitor. Select a check to see its recent results.</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={column.className}
                aria-sort={sort.key === column.key ? sort.direction : 'none'}
              >
                <button type="button" className="sort" onClick={() => onSort(column.key)}>
                  {column.label}
                  <span className="sort-mark" aria-hidden="true">
                    {sort.key === column.key ? (sort.direction === 'ascending' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </th>
            ))}
            {showBeats ? (
              <th scope="col" className="col-beats">
                Last runs
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody ref={body}>
          {checks.map((check, index) => (
            <tr
              key={check.guid}
              className={check.guid === selected ? 'selected' : undefined}
              aria-selected={check.guid === selected}
              onClick={() => onSelect(check.guid)}
            >
              <th scope="row">
                <button
                  type="button"
                  className="row-select"
                  data-guid={check.guid}
                  aria-pressed={check.guid === selected}
                  onClick={(event) => {
                    event.stopPropagation();
                    onSelect(check.guid);
                  }}
                  onKeyDown={(event) => moveFocus(event, index)}
                >
                  {check.name}
                </button>
              </th>
              <td className="col-type">{check.type}</td>
              <td className="col-target">
                {check.privateDefinition ? (
                  <span className="muted">private</span>
                ) : (
                  <span className="target" title={check.target}>
                    {check.target}
                  </span>
                )}
              </td>
              <td className="col-interval" title={runsEvery(check)}>
                {interval(check.effectiveIntervalSec)}
                {check.sharedBy > 1 ? ', shared' : ''}
              </td>
              <td className="col-last" data-label="Last:">
                {lastResultText(check, now)}
              </td>
              <td className="col-latency" data-label="Latency:">
                <span className="latency-cell">
                  <Sparkline values={check.latency} />
                  <span className="num">{milliseconds(check.lastResult?.latency_ms)}</span>
                </span>
              </td>
              <td className="col-uptime num" data-label="Uptime:">
                {percent(check.uptimePct)}
              </td>
              <td className="col-state">
                <HealthBadge health={check.health} />
              </td>
              {showBeats ? (
                <td className="col-beats">
                  <RowHeartbeat check={check} details={details[check.guid]?.entries} onWant={want} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
