// One check in full: what it is, why it does not run (if so), and its recent results with
// their errors, read from the agent's history on demand and again after every new result.
import { useEffect, useState } from 'react';
import type { CheckView, HistoryEntry } from '../../src-main/ipc/contract.ts';
import { HealthBadge } from '../components/HealthBadge.tsx';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { dateTime, interval, milliseconds, percent, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';

type HistoryState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; entries: HistoryEntry[] };

export function CheckDetail({ check, onClose }: { check: CheckView; onClose: () => void }) {
  const { bridge } = useAgent();
  const [history, setHistory] = useState<HistoryState>({ kind: 'loading' });
  const lastRun = check.lastResult?.ran_at;

  useEffect(() => {
    let live = true;
    void bridge.invoke('checks:history', { guid: check.guid, limit: 50 }).then((result) => {
      if (!live) return;
      setHistory(result.ok ? { kind: 'ready', entries: result.value } : { kind: 'error', message: result.error });
    });
    return () => {
      live = false;
    };
  }, [bridge, check.guid, lastRun]);

  return (
    <aside className="detail card" aria-labelledby="detail-title">
      <div className="detail-head">
        <h2 id="detail-title">{check.name}</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label={`Close the details of ${check.name}`}>Close</button>
      </div>
      <dl className="facts">
        <dt>State</dt>
        <dd><HealthBadge health={check.health} /></dd>
        <dt>Type</dt>
        <dd>{check.type}</dd>
        <dt>Target</dt>
        <dd className="wrap">{check.privateDefinition ? 'private — defined in the local definitions file, never shown here' : check.target}</dd>
        <dt>Interval</dt>
        <dd>{interval(check.intervalSec)}</dd>
        <dt>Uptime</dt>
        <dd>{percent(check.uptimePct)}</dd>
        <dt>Unsent</dt>
        <dd>{check.unsent}</dd>
        <dt>Guid</dt>
        <dd><code>{check.guid}</code></dd>
      </dl>
      {check.notRunReason === undefined ? null : <Notice tone="warning" title="Not run">{sentence(check.notRunReason)}</Notice>}
      <h3>Recent results</h3>
      {history.kind === 'loading' ? <Spinner label="Loading recent results…" /> : null}
      {history.kind === 'error' ? <Notice tone="error" title="Recent results could not be loaded">{sentence(history.message)} Select the check again to retry.</Notice> : null}
      {history.kind === 'ready' && history.entries.length === 0 ? (
        <p className="muted">No results yet. {check.runnable ? 'The first run happens within a few seconds.' : 'This check is not run, so it has none.'}</p>
      ) : null}
      {history.kind === 'ready' && history.entries.length > 0 ? (
        <ol className="history" aria-label={`Recent results of ${check.name}, newest first`}>
          {history.entries.map((entry, i) => (
            <li key={`${entry.ran_at}-${i}`} className={entry.skipped ? 'h-skipped' : entry.success ? 'h-ok' : 'h-fail'}>
              <span className="h-when">{dateTime(entry.ran_at)}</span>
              <span className="h-what">{entry.skipped ? 'skipped (offline)' : entry.success ? 'ok' : 'failed'}{entry.http_status > 0 ? ` · HTTP ${entry.http_status}` : ''} · {milliseconds(entry.latency_ms)}</span>
              {entry.error === '' ? null : <span className="h-error">{entry.error}</span>}
            </li>
          ))}
        </ol>
      ) : null}
    </aside>
  );
}
