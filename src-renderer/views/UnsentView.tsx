// Unsent results: what waits in the outbox, per check, what the server refused and why, and an
// "Upload now" that shows its progress while a backlog drains, and "Send again" for the results
// the server refused (once the server or the check is fixed).
import { useState } from 'react';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { ago, bytes, count, dateTime, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { currentFailure } from '../state/signals.ts';
import { useServerCommand } from '../state/use-command.ts';
import { useNow } from '../state/use-now.ts';
import { runDoneWords } from '../words/command-words.ts';
import { callFailureWords } from '../words/failure-words.ts';

export function UnsentView() {
  const { bridge, snapshot } = useAgent();
  const now = useNow();
  // What a command did when it worked; a failure is the command's error, said as a failure.
  const [message, setMessage] = useState<string | undefined>();
  const upload = useServerCommand(bridge, 'agent:upload-now');
  const resend = useServerCommand(bridge, 'agent:resend-set-aside');
  const [resent, setResent] = useState<string | undefined>();
  if (snapshot === undefined) return null;
  const { outbox, upload: loop } = snapshot;
  const uploadFailure = currentFailure(snapshot, 'upload');
  const names = new Map(snapshot.checks.map((c) => [c.guid, c.name]));
  const perCheck = snapshot.checks.filter((c) => c.unsent > 0).sort((a, b) => b.unsent - a.unsent);
  const progress = loop.progress;
  // Of how many: what was sent plus what waits, from this one snapshot, so the bar and the count
  // below it never disagree (the drain also sends what arrives while it runs).
  const progressTotal = (progress?.delivered ?? 0) + outbox.unsent;

  const uploadNow = async (): Promise<void> => {
    setMessage(undefined);
    const result = await upload.run();
    if (result?.ok === true) setMessage(runDoneWords(result.done));
  };

  const resendNow = async (): Promise<void> => {
    setResent(undefined);
    const result = await resend.run();
    if (result?.ok === true) setResent(runDoneWords(result.done));
  };

  return (
    <ViewFrame
      title="Unsent results"
      intro="Every result is stored on this machine first and deleted only after the server confirmed it."
      actions={
        <button
          type="button"
          className="primary"
          onClick={() => void uploadNow()}
          disabled={upload.pending || !snapshot.enrolled || outbox.unsent === 0}
        >
          {upload.pending ? 'Uploading…' : 'Upload now'}
        </button>
      }
    >
      {progress === undefined ? null : (
        <div className="progress-block">
          <label htmlFor="upload-progress">
            Sending results: {progress.delivered.toLocaleString()} of {progressTotal.toLocaleString()}
          </label>
          <progress id="upload-progress" value={progress.delivered} max={Math.max(progressTotal, 1)} />
        </div>
      )}
      {upload.pending && progress === undefined ? <Spinner label="Sending results to the server…" /> : null}
      {message === undefined ? null : <Notice tone="success">{message}</Notice>}
      {/* The words of a failed call say what follows it (the results kept, tried again) once. */}
      {upload.error === undefined ? null : (
        <Notice tone="error" title="Upload failed">
          {sentence(upload.error)}
        </Notice>
      )}
      {/* From the connection state too: once the server answers again, an older failure is history.
          While Upload now's or Send again's own failure is shown, that says it: once, not twice. */}
      {uploadFailure !== undefined && loop.failures > 0 && upload.error === undefined && resend.error === undefined ? (
        <Notice tone="warning" title={`Sending has failed ${count(loop.failures, 'time')} in a row`}>
          {callFailureWords(uploadFailure, 'upload')}
        </Notice>
      ) : null}
      {outbox.dropped > 0 ? (
        <Notice tone="error" title={`${count(outbox.dropped, 'result was', 'results were')} dropped`}>
          The unsent-results buffer was full, so the oldest results were removed to make room. Restore the connection to
          the server so the rest is delivered.
        </Notice>
      ) : null}

      <div className="stats" role="group" aria-label="Unsent results summary">
        <div className="stat">
          <span className="stat-value" data-testid="unsent-count">
            {outbox.unsent.toLocaleString()}
          </span>
          <span className="stat-label">waiting to be sent</span>
        </div>
        <div className="stat">
          <span className="stat-value">{bytes(outbox.bytes)}</span>
          <span className="stat-label">on disk</span>
        </div>
        <div className="stat">
          <span className="stat-value">{outbox.oldestRanAt === undefined ? '—' : ago(outbox.oldestRanAt, now)}</span>
          <span className="stat-label">oldest result</span>
        </div>
        <div className="stat">
          <span className="stat-value">{ago(loop.lastOkAt, now)}</span>
          <span className="stat-label">last upload</span>
        </div>
      </div>

      {outbox.unsent === 0 ? (
        <EmptyState title="Nothing is waiting">
          <p>
            Every result has reached the server. If the server cannot be reached, results collect here and are sent when
            it is back.
          </p>
        </EmptyState>
      ) : (
        <section className="card" aria-labelledby="per-check-title">
          <h2 id="per-check-title">Per check</h2>
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col" className="num">
                  Unsent
                </th>
              </tr>
            </thead>
            <tbody>
              {perCheck.map((c) => (
                <tr key={c.guid}>
                  <th scope="row">{c.name}</th>
                  <td className="num">{c.unsent.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section className="card" aria-labelledby="rejected-title">
        <h2 id="rejected-title">Refused by the server</h2>
        {resent === undefined ? null : <Notice tone="success">{resent}</Notice>}
        {resend.error === undefined ? null : (
          <Notice tone="error" title="Sending again failed">
            {sentence(resend.error)}
          </Notice>
        )}
        {outbox.rejectedCount === 0 ? (
          <p className="muted">
            None. A result the server refuses is set aside here with its reason, and the rest are still delivered.
          </p>
        ) : (
          <>
            <p>
              The server refused {count(outbox.rejectedCount, 'result')}. They are kept here and not sent again by
              themselves; the reasons usually point at a check definition to fix on the server. Once it is fixed, send
              them again.
              {outbox.rejected.length < outbox.rejectedCount ? ` The latest ${outbox.rejected.length} are listed.` : ''}
            </p>
            <p>
              <button type="button" onClick={() => void resendNow()} disabled={resend.pending || !snapshot.enrolled}>
                {resend.pending ? 'Sending again…' : 'Send again'}
              </button>
            </p>
            <div className="table-wrap">
              <table className="table compact">
                <thead>
                  <tr>
                    <th scope="col">Check</th>
                    <th scope="col">Ran at</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Refused at</th>
                  </tr>
                </thead>
                <tbody>
                  {outbox.rejected.map((r, i) => (
                    <tr key={`${r.check_guid}-${r.ran_at}-${i}`}>
                      <th scope="row">{names.get(r.check_guid) ?? r.check_guid}</th>
                      <td>{dateTime(r.ran_at)}</td>
                      <td className="wrap">{r.reason}</td>
                      <td>{dateTime(r.rejected_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </ViewFrame>
  );
}
