// The measured part of the detail pane: uptime over 1 h / 24 h / 7 d (each window named), the
// latency chart over the chosen window, the last run explained, a "Run now" test run, and this
// check's events. Read from the agent's rollups and event log on demand and after each new run.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { useCallback, useEffect, useState } from 'react';
import type { CheckView, CheckWindow, RunExplanation } from '../../src-main/ipc/contract.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { EventList } from '../events/EventList.tsx';
import { dateTime, percent, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';
import { useNow } from '../state/use-now.ts';
import { testRunFailure } from '../words/command-words.ts';
import { ranges, uptimeOf, uptimeSentence, type RangeName } from './chart-data.ts';
import { LatencyChart } from './LatencyChart.tsx';
import { RunExplanationView } from './RunExplanation.tsx';

/** The last run when the agent holds no explanation of it (it ran before the agent started, or never). */
function noExplanation(check: CheckView): string {
  const last = check.lastResult;
  if (last === undefined)
    return check.runnable ? 'No run yet: the first one happens within a few seconds.' : 'This check has not run here.';
  const verdict = last.skipped ? 'skipped (offline)' : last.success ? 'passed' : 'failed';
  const status = last.http_status > 0 ? `, HTTP ${last.http_status}` : '';
  const timings = check.runnable
    ? 'Its timings are kept only for runs since the agent started: run it now to see them.'
    : 'Its timings are kept only for runs since the agent started.';
  return `Last run ${dateTime(last.ran_at)}: ${verdict}${status}. ${timings}`;
}

type Loaded = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; window: CheckWindow };

export function CheckInsight({ check }: { check: CheckView }) {
  const { bridge } = useAgent();
  const now = useNow(30_000);
  const [range, setRange] = useState<RangeName>('1h');
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [test, setTest] = useState<RunExplanation | undefined>();
  const lastRun = check.lastResult?.ran_at;
  const runNow = useCommand(
    useCallback(() => bridge.invoke('checks:test-run', { guid: check.guid }), [bridge, check.guid]),
    testRunFailure,
  );

  useEffect(() => {
    let live = true;
    void bridge.invoke('checks:window', { guid: check.guid, range }).then((result) => {
      if (live)
        setLoaded(
          result.ok ? { kind: 'ready', window: result.value } : { kind: 'error', message: ipcErrorWords(result.error) },
        );
    });
    return () => {
      live = false;
    };
  }, [bridge, check.guid, range, lastRun]);

  const chosen = ranges.find((r) => r.name === range) ?? ranges[0];
  const run = async (): Promise<void> => {
    setTest(undefined);
    // A refused run is runNow.error (words from its kind), said as a failure below.
    const outcome = await runNow.run();
    if (outcome?.ok === true) setTest(outcome.run);
  };

  return (
    <>
      <h3 id={`uptime-${check.guid}`}>Uptime</h3>
      {loaded.kind === 'ready' ? (
        <dl className="uptime-figures" aria-labelledby={`uptime-${check.guid}`}>
          {ranges.map((r) => (
            <div key={r.name} title={uptimeSentence(loaded.window.uptime[r.name], r.words)}>
              <dt>last {r.label}</dt>
              <dd>{percent(uptimeOf(loaded.window.uptime[r.name]))}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div className="chart-head">
        <h3>Latency</h3>
        <div className="segmented" role="group" aria-label="Window of the chart">
          {ranges.map((r) => (
            <button key={r.name} type="button" aria-pressed={r.name === range} onClick={() => setRange(r.name)}>
              {r.label}
            </button>
          ))}
        </div>
      </div>
      {loaded.kind === 'loading' ? <Spinner label="Loading the figures…" /> : null}
      {loaded.kind === 'error' ? (
        <Notice tone="error" title="The figures could not be loaded">
          {sentence(loaded.message)}
        </Notice>
      ) : null}
      {loaded.kind === 'ready' && chosen !== undefined ? (
        <>
          <LatencyChart
            buckets={loaded.window.buckets}
            fromMs={loaded.window.fromMs}
            toMs={loaded.window.toMs}
            bucketMs={loaded.window.bucketMs}
            words={chosen.words}
          />
          <p className="muted uptime-line">{uptimeSentence(loaded.window.uptime[range], chosen.words)}.</p>
        </>
      ) : null}

      <div className="chart-head">
        <h3>Last run</h3>
        <button
          type="button"
          onClick={() => void run()}
          disabled={runNow.pending || !check.runnable}
          aria-describedby={check.runnable ? undefined : `no-run-${check.guid}`}
        >
          {runNow.pending ? 'Running…' : 'Run now'}
        </button>
      </div>
      {check.runnable ? null : (
        <p className="muted" id={`no-run-${check.guid}`}>
          Run now is available once the check can run again (see why it is not run above).
        </p>
      )}
      {runNow.pending ? <Spinner label={`Running ${check.name} once…`} /> : null}
      {runNow.error === undefined ? null : (
        <Notice tone="error" title="The test run did not happen">
          {sentence(runNow.error)}
        </Notice>
      )}
      {test === undefined ? null : <RunExplanationView run={test} title="Test run" />}
      {test === undefined && loaded.kind === 'ready' && loaded.window.lastRun !== undefined ? (
        <RunExplanationView run={loaded.window.lastRun} title="Last run" />
      ) : null}
      {test === undefined && loaded.kind === 'ready' && loaded.window.lastRun === undefined ? (
        <p className="muted">{noExplanation(check)}</p>
      ) : null}

      {loaded.kind === 'ready' && loaded.window.events.length > 0 ? (
        <>
          <h3>Events</h3>
          <EventList
            events={loaded.window.events}
            now={now}
            label={`Events of ${check.name}, newest first`}
            linkChecks={false}
          />
        </>
      ) : null}
    </>
  );
}
