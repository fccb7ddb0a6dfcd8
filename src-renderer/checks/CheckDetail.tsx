// One check in full: its state and since when, its last runs as a heartbeat, what it is, why it
// does not run (if so), and its recent results with their errors, read from the agent's history
// on demand and again after every new result. In a narrow window it is a full-width sheet that
// takes the focus; Escape closes it wherever the focus is.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { useEffect, useRef, useState } from 'react';
import type { CheckView, HistoryEntry } from '../../src-main/ipc/contract.ts';
import { EntryError } from '../private/EntryError.tsx';
import { HealthBadge } from '../components/HealthBadge.tsx';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { sinceWhen } from '../events/event-text.ts';
import { dateTime, milliseconds, runsEvery, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useNow } from '../state/use-now.ts';
import { CheckInsight } from './CheckInsight.tsx';
import { beatsOfHistory, HeartbeatBar } from './HeartbeatBar.tsx';

type HistoryState =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; entries: HistoryEntry[] };

/** The pane is a sheet over the list below this width (keep in step with parts.css). */
const sheetQuery = '(max-width: 1000px)';

export function CheckDetail({ check, onClose }: { check: CheckView; onClose: () => void }) {
  const { bridge } = useAgent();
  const now = useNow();
  const [history, setHistory] = useState<HistoryState>({ kind: 'loading' });
  const heading = useRef<HTMLHeadingElement>(null);
  const lastRun = check.lastResult?.ran_at;

  useEffect(() => {
    let live = true;
    void bridge.invoke('checks:history', { guid: check.guid, limit: 50 }).then((result) => {
      if (!live) return;
      setHistory(
        result.ok ? { kind: 'ready', entries: result.value } : { kind: 'error', message: ipcErrorWords(result.error) },
      );
    });
    return () => {
      live = false;
    };
  }, [bridge, check.guid, lastRun]);

  useEffect(() => {
    const close = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented) onClose();
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [onClose]);

  // As a sheet it covers the list: the focus moves into it, else keyboard users are left behind.
  useEffect(() => {
    if (window.matchMedia(sheetQuery).matches) heading.current?.focus();
  }, []);

  const downSince = check.downSince ?? check.lastResult?.ran_at;

  return (
    <aside className="detail card" aria-labelledby="detail-title">
      <div className="detail-head">
        <h2 id="detail-title" ref={heading} tabIndex={-1}>
          {check.name}
        </h2>
        <button
          type="button"
          className="ghost"
          onClick={onClose}
          aria-label={`Close the details of ${check.name}`}
          aria-keyshortcuts="Escape"
        >
          Close
        </button>
      </div>
      <p className="detail-state">
        <HealthBadge health={check.health} />
        {check.health === 'down' && downSince !== undefined ? (
          <span className="bad-text"> {`Down ${sinceWhen(downSince, now)}`}</span>
        ) : null}
      </p>
      {check.health === 'down' && check.lastResult?.error !== undefined && check.lastResult.error !== '' ? (
        <p className="bad-text detail-reason">{sentence(check.lastResult.error)}</p>
      ) : null}
      {history.kind === 'ready' && history.entries.length > 0 ? (
        <HeartbeatBar beats={beatsOfHistory(history.entries)} name={check.name} />
      ) : null}
      {check.entryErrors !== undefined ? (
        <Notice tone="warning" title="Not run: its entry in the private definitions file has an error">
          <ul className="entry-errors">
            {check.entryErrors.map((e, i) => (
              <li key={`${e.field ?? ''}-${i}`}>
                <EntryError field={e.field} detail={e.detail} />
              </li>
            ))}
          </ul>
          <p>Fix this in the file and save it: it is read again by itself, and the check runs on its next turn.</p>
        </Notice>
      ) : check.notRunReason === undefined ? null : (
        <Notice tone="warning" title="Not run">
          {sentence(check.notRunReason)}
        </Notice>
      )}
      <CheckInsight check={check} />
      <h3>About this check</h3>
      <dl className="facts">
        <dt>Type</dt>
        <dd>{check.type}</dd>
        <dt>Target</dt>
        <dd className="wrap">
          {check.privateDefinition ? 'private — defined in the local definitions file, never shown here' : check.target}
        </dd>
        <dt>Interval</dt>
        <dd>{runsEvery(check)}</dd>
        <dt>Unsent</dt>
        <dd>{check.unsent}</dd>
        <dt>Guid</dt>
        <dd>
          <code>{check.guid}</code>
        </dd>
      </dl>
      <h3>Recent results</h3>
      {history.kind === 'loading' ? <Spinner label="Loading recent results…" /> : null}
      {history.kind === 'error' ? (
        <Notice tone="error" title="Recent results could not be loaded">
          {sentence(history.message)} Select the check again to retry.
        </Notice>
      ) : null}
      {history.kind === 'ready' && history.entries.length === 0 ? (
        <p className="muted">
          No results yet.{' '}
          {check.runnable ? 'The first run happens within a few seconds.' : 'This check is not run, so it has none.'}
        </p>
      ) : null}
      {history.kind === 'ready' && history.entries.length > 0 ? (
        <ol className="history" aria-label={`Recent results of ${check.name}, newest first`}>
          {history.entries.map((entry, i) => (
            <li
              key={`${entry.ran_at}-${i}`}
              className={entry.skipped ? 'h-skipped' : entry.success ? 'h-ok' : 'h-fail'}
            >
              <span className="h-when">{dateTime(entry.ran_at)}</span>
              <span className="h-what">
                {entry.skipped ? 'skipped (offline)' : entry.success ? 'ok' : 'failed'}
                {entry.http_status > 0 ? ` · HTTP ${entry.http_status}` : ''}
                {/* Nothing came back (0 ms): the error says why; a dash would read as a missing figure. */}
                {entry.latency_ms > 0 ? ` · ${milliseconds(entry.latency_ms)}` : ''}
              </span>
              {entry.error === '' ? null : <span className="h-error">{entry.error}</span>}
            </li>
          ))}
        </ol>
      ) : null}
    </aside>
  );
}
