// Checks: every check this monitor has, filterable and sortable, with a detail pane.
import { useCallback, useMemo, useState } from 'react';
import { CheckDetail } from '../checks/CheckDetail.tsx';
import { CheckTable } from '../checks/CheckTable.tsx';
import { filterChecks, nextSort, sortChecks, type HealthFilter, type Sort } from '../checks/table-model.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { countsLine, healthLabels } from '../../src-main/ipc/agent-summary.ts';
import { sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useServerCommand } from '../state/use-command.ts';
import { useNavigation } from '../state/navigation.tsx';
import { useNow } from '../state/use-now.ts';

const healthFilters: { value: HealthFilter; label: string }[] = [
  { value: 'all', label: 'All states' },
  { value: 'problems', label: 'Needs attention' },
  ...(['up', 'down', 'pending', 'not-run', 'skipped', 'paused', 'disabled'] as const).map((value) => ({
    value,
    label: healthLabels[value],
  })),
];

/** The selected check comes from the place (the URL hash), so Back and reload keep it. */
export function ChecksView({ selected }: { selected?: string | undefined }) {
  const { bridge, snapshot } = useAgent();
  const { navigate } = useNavigation();
  const now = useNow();
  const [text, setText] = useState('');
  const [health, setHealth] = useState<HealthFilter>('all');
  const [sort, setSort] = useState<Sort>({ key: 'health', direction: 'ascending' });
  const sync = useServerCommand(bridge, 'agent:sync-now');
  const checks = snapshot?.checks;
  const shown = useMemo(() => sortChecks(filterChecks(checks ?? [], text, health), sort), [checks, text, health, sort]);
  const select = useCallback(
    (guid: string | undefined) => navigate(guid === undefined ? { view: 'checks' } : { view: 'checks', guid }),
    [navigate],
  );
  if (snapshot === undefined) return null;
  const selectedCheck = snapshot.checks.find((c) => c.guid === selected);

  if (snapshot.checks.length === 0) {
    return (
      <ViewFrame title="Checks">
        {snapshot.enrolled ? (
          <EmptyState
            title="No checks yet"
            action={
              <button type="button" onClick={() => void sync.run()} disabled={sync.pending}>
                {sync.pending ? 'Syncing…' : 'Sync now'}
              </button>
            }
          >
            <p>
              The server has not given this monitor any checks. Assign checks to it on the server; they arrive at the
              next sync.
            </p>
          </EmptyState>
        ) : (
          <EmptyState
            title="No checks yet"
            action={
              <button type="button" className="primary" onClick={() => navigate({ view: 'enroll' })}>
                Enroll this agent
              </button>
            }
          >
            <p>Checks come from your uptime server once this agent is enrolled.</p>
          </EmptyState>
        )}
        {sync.error === undefined ? null : (
          <Notice tone="error" title="Sync failed">
            {sentence(sync.error)}
          </Notice>
        )}
      </ViewFrame>
    );
  }

  /** Closing puts the focus back on the row the pane was opened from. */
  function closeDetail(guid: string): void {
    select(undefined);
    requestAnimationFrame(() =>
      document.querySelector<HTMLButtonElement>(`button.row-select[data-guid="${CSS.escape(guid)}"]`)?.focus(),
    );
  }

  return (
    <ViewFrame
      title="Checks"
      intro={`${countsLine(snapshot.counts, snapshot.paused || snapshot.auth === 'monitor-disabled')}.`}
    >
      <div className="toolbar" role="search">
        <label className="field inline">
          <span>Filter</span>
          <input
            type="search"
            value={text}
            placeholder="Name, target or type"
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <label className="field inline">
          <span>State</span>
          <select value={health} onChange={(e) => setHealth(e.target.value as HealthFilter)}>
            {healthFilters.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <span className="muted" aria-live="polite">
          {shown.length === snapshot.checks.length ? '' : `${shown.length} of ${snapshot.checks.length} shown`}
        </span>
      </div>
      <div className={selectedCheck === undefined ? 'checks-layout' : 'checks-layout with-detail'}>
        {shown.length === 0 ? (
          <EmptyState
            title="No check matches the filter"
            action={
              <button
                type="button"
                onClick={() => {
                  setText('');
                  setHealth('all');
                }}
              >
                Clear the filter
              </button>
            }
          />
        ) : (
          <CheckTable
            checks={shown}
            sort={sort}
            onSort={(key) => setSort((s) => nextSort(s, key))}
            selected={selected}
            onSelect={select}
            now={now}
          />
        )}
        {selectedCheck === undefined ? null : (
          <CheckDetail key={selectedCheck.guid} check={selectedCheck} onClose={() => closeDetail(selectedCheck.guid)} />
        )}
      </div>
    </ViewFrame>
  );
}
