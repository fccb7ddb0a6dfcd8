// Overview: who this agent is, whether it reaches the server, what waits to be sent, and the
// problems that need the user, each with the button that fixes it.
import { useCallback } from 'react';
import type { Problem } from '../../src-main/ipc/contract.ts';
import { countsLine } from '../../src-main/ipc/agent-summary.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { ago, count, dateTime, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';
import { useNavigation, type Place } from '../state/navigation.tsx';
import { useNow } from '../state/use-now.ts';

const problemTarget: Record<Problem['action'], Place | undefined> = {
  enroll: { view: 'enroll' },
  'private-definitions': { view: 'private' },
  unsent: { view: 'unsent' },
  none: undefined,
};

export function OverviewView() {
  const { bridge, snapshot, acceptSnapshot } = useAgent();
  const { navigate, flash, setFlash } = useNavigation();
  const now = useNow();
  const pause = useCommand(useCallback(() => bridge.invoke(snapshot?.paused === true ? 'agent:resume' : 'agent:pause', {}), [bridge, snapshot?.paused]));
  const sync = useCommand(useCallback(() => bridge.invoke('agent:sync-now', {}), [bridge]));
  if (snapshot === undefined) return null;
  const { identity, connectivity, outbox, problems, counts } = snapshot;

  const togglePause = async (): Promise<void> => {
    const next = await pause.run();
    if (next !== undefined) acceptSnapshot(next);
  };
  const syncResult = async (): Promise<void> => {
    setFlash(undefined);
    const result = await sync.run();
    if (result !== undefined) setFlash(sentence(result.message));
  };

  if (!snapshot.enrolled || identity === undefined) {
    return (
      <ViewFrame title="Overview">
        <EmptyState
          title="This agent is not enrolled yet"
          action={<button type="button" className="primary" onClick={() => navigate({ view: 'enroll' })}>Enroll this agent</button>}
        >
          <p>Enroll it with a token from your uptime server’s “Add a monitor” page. It then receives its checks and starts running them from this network.</p>
        </EmptyState>
      </ViewFrame>
    );
  }

  return (
    <ViewFrame
      title="Overview"
      actions={
        <>
          <button type="button" onClick={() => void syncResult()} disabled={sync.pending}>
            {sync.pending ? 'Syncing…' : 'Sync now'}
          </button>
          <button type="button" onClick={() => void togglePause()} disabled={pause.pending}>
            {snapshot.paused ? 'Resume checks' : 'Pause checks'}
          </button>
        </>
      }
    >
      {flash === undefined ? null : <Notice tone="success">{flash}</Notice>}
      {sync.error === undefined ? null : <Notice tone="error" title="Sync failed">{sentence(sync.error)}</Notice>}
      {pause.error === undefined ? null : <Notice tone="error" title="The agent did not change its paused state">{sentence(pause.error)} Try again.</Notice>}
      {sync.pending ? <Spinner label="Asking the server for check changes…" /> : null}

      <div className="cards">
        <article className="card" aria-labelledby="card-monitor">
          <h2 id="card-monitor">This monitor</h2>
          <dl className="facts">
            <dt>Enrolled as</dt>
            <dd>{identity.name ?? '—'}</dd>
            <dt>Monitor id</dt>
            <dd><code>{identity.monitorId}</code></dd>
            <dt>Server</dt>
            <dd className="wrap">{identity.server}</dd>
            <dt>Location</dt>
            <dd>{[identity.city, identity.region, identity.country].filter((v) => v !== undefined && v !== '').join(', ') || '—'}</dd>
            {identity.enrolled_at === undefined ? null : (<><dt>Enrolled</dt><dd>{dateTime(identity.enrolled_at)}</dd></>)}
          </dl>
        </article>

        <article className="card" aria-labelledby="card-link">
          <h2 id="card-link">Connection</h2>
          <dl className="facts">
            <dt>Connectivity</dt>
            <dd>
              {connectivity.online ? <span className="ok-text">Online</span> : <span className="bad-text">Offline since {dateTime(connectivity.offlineSince)}</span>}
            </dd>
            <dt>Last contact</dt>
            <dd>{ago(connectivity.lastContactAt, now)}</dd>
            <dt>Last sync</dt>
            <dd>{ago(snapshot.sync.lastOkAt, now)}{snapshot.sync.lastError === undefined ? null : <span className="bad-text"> — failing: {snapshot.sync.lastError}</span>}</dd>
            <dt>Last upload</dt>
            <dd>{ago(snapshot.upload.lastOkAt, now)}{snapshot.upload.lastError === undefined ? null : <span className="bad-text"> — failing: {snapshot.upload.lastError}</span>}</dd>
            <dt>Running checks</dt>
            <dd>{snapshot.paused ? <span className="warn-text">Paused — no check runs until you resume</span> : 'Yes'}</dd>
            <dt>Checks</dt>
            <dd>{countsLine(counts)}</dd>
            <dt>Unsent results</dt>
            <dd>
              <button type="button" className="link" onClick={() => navigate({ view: 'unsent' })}>{count(outbox.unsent, 'result')}</button>
              {outbox.oldestRanAt === undefined ? null : <span className="muted"> (oldest {ago(outbox.oldestRanAt, now)})</span>}
            </dd>
          </dl>
        </article>
      </div>

      <section className="card" aria-labelledby="problems-title">
        <h2 id="problems-title">Problems</h2>
        {problems.length === 0 ? (
          <p className="muted">No problems: this agent has everything it needs and is running its checks.</p>
        ) : (
          <ul className="problems">
            {problems.map((problem) => {
              const target = problemTarget[problem.action];
              return (
                <li key={problem.kind} className={`problem problem-${problem.kind}`}>
                  <span>{problem.message}</span>
                  {target === undefined ? null : (
                    <button type="button" onClick={() => navigate(target)}>{problem.actionLabel}</button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </ViewFrame>
  );
}
