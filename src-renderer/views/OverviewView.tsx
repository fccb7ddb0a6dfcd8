// Overview: leads with what is broken — the checks that are down (since when, and why), then
// the checks that keep going down and up (once each, with their last runs), then the agent's
// problems, each with the button that fixes it — and then who this agent is,
// whether it reaches the server and what waits to be sent.
import { useCallback } from 'react';
import { countsLine } from '../../src-main/ipc/agent-summary.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { sinceWhen } from '../events/event-text.ts';
import { ago, count, dateTime, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand, useServerCommand } from '../state/use-command.ts';
import { useNavigation, type Place } from '../state/navigation.tsx';
import { useNow } from '../state/use-now.ts';
import { runDoneWords } from '../words/command-words.ts';
import {
  agentProblems,
  downChecks,
  flappingChecks,
  loopFailureText,
  serverState,
  type OverviewAction,
} from './overview-model.ts';
import { beatsOfStates, HeartbeatBar } from '../checks/HeartbeatBar.tsx';

const problemTarget: Record<OverviewAction, Place | undefined> = {
  enroll: { view: 'enroll' },
  'private-definitions': { view: 'private' },
  unsent: { view: 'unsent' },
  outages: { view: 'outages' },
  'sync-now': undefined,
  'upload-now': undefined,
  none: undefined,
};

/** A down or flapping check's name, opening its detail in Checks. */
function CheckLink({ guid, name }: { guid: string; name: string }) {
  const { navigate } = useNavigation();
  return (
    <button type="button" className="link down-name" onClick={() => navigate({ view: 'checks', guid })}>
      {name}
    </button>
  );
}

export function OverviewView() {
  const { bridge, snapshot, acceptSnapshot } = useAgent();
  const { navigate, flash, setFlash } = useNavigation();
  const now = useNow();
  const pause = useCommand(
    useCallback(
      () => bridge.invoke(snapshot?.paused === true ? 'agent:resume' : 'agent:pause', {}),
      [bridge, snapshot?.paused],
    ),
  );
  const sync = useServerCommand(bridge, 'agent:sync-now');
  const upload = useServerCommand(bridge, 'agent:upload-now');
  if (snapshot === undefined) return null;
  const { identity, connectivity, outbox, counts } = snapshot;
  const down = downChecks(snapshot);
  const flapping = flappingChecks(snapshot);
  const problems = agentProblems(snapshot, now);
  const server = serverState(snapshot);
  const syncFailure = loopFailureText(snapshot, 'sync');
  const uploadFailure = loopFailureText(snapshot, 'upload');

  const togglePause = async (): Promise<void> => {
    const next = await pause.run();
    if (next !== undefined) acceptSnapshot(next);
  };
  const syncResult = async (): Promise<void> => {
    setFlash(undefined);
    upload.clearError();
    // Only a sync that worked is a success; a failed one is sync.error, said as a failure below.
    const result = await sync.run();
    if (result?.ok === true) setFlash(runDoneWords(result.done));
  };
  const uploadResult = async (): Promise<void> => {
    setFlash(undefined);
    sync.clearError();
    const result = await upload.run();
    if (result?.ok === true) setFlash(runDoneWords(result.done));
  };
  const act = (action: OverviewAction): void => {
    if (action === 'sync-now') void syncResult();
    else if (action === 'upload-now') void uploadResult();
    else {
      const target = problemTarget[action];
      if (target !== undefined) navigate(target);
    }
  };

  if (!snapshot.enrolled || identity === undefined) {
    return (
      <ViewFrame title="Overview">
        <EmptyState
          title="This agent is not enrolled yet"
          action={
            <button type="button" className="primary" onClick={() => navigate({ view: 'enroll' })}>
              Enroll this agent
            </button>
          }
        >
          <p>
            Enroll it with a token from your uptime server’s “Add a monitor” page. It then receives its checks and
            starts running them from this network.
          </p>
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
      {sync.error === undefined ? null : (
        <Notice tone="error" title="Sync failed">
          {sentence(sync.error)}
        </Notice>
      )}
      {upload.error === undefined ? null : (
        <Notice tone="error" title="Sending failed">
          {sentence(upload.error)}
        </Notice>
      )}
      {pause.error === undefined ? null : (
        <Notice tone="error" title="The agent did not change its paused state">
          {sentence(pause.error)} Try again.
        </Notice>
      )}
      {sync.pending ? <Spinner label="Asking the server for check changes…" /> : null}

      {down.length === 0 ? null : (
        <section className="card down-card" aria-labelledby="down-title">
          <h2 id="down-title">{down.length === 1 ? '1 check is down' : `${down.length} checks are down`}</h2>
          <ul className="down-list">
            {down.map(({ check, since, reason }) => (
              <li key={check.guid} className="down-item">
                <CheckLink guid={check.guid} name={check.name} />
                <span className="down-since">{since === undefined ? 'down' : `down ${sinceWhen(since, now)}`}</span>
                <span className="down-reason">{sentence(reason)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      {flapping.length === 0 ? null : (
        <section className="card flap-card" aria-labelledby="flap-title">
          <h2 id="flap-title">
            {flapping.length === 1
              ? '1 check keeps going down and up'
              : `${flapping.length} checks keep going down and up`}
          </h2>
          <ul className="down-list">
            {flapping.map((check) => (
              <li key={check.guid} className="down-item">
                <CheckLink guid={check.guid} name={check.name} />
                <span className="down-since">
                  {check.flapping === undefined ? '' : `changing state ${sinceWhen(check.flapping.since, now)}`}
                </span>
                <span className="down-reason">
                  {check.health === 'down' ? 'Failing right now' : 'Passing right now'}; you are told if it stays down.
                </span>
                {check.beats === undefined ? null : (
                  <HeartbeatBar beats={beatsOfStates(check.beats.slice(-30))} name={check.name} compact />
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="card" aria-labelledby="problems-title">
        <h2 id="problems-title">{problems.length === 0 ? 'The agent' : 'Problems of the agent'}</h2>
        {problems.length === 0 ? (
          down.length === 0 ? (
            <p className="ok-text">No problems: every check that runs is up, and this agent has everything it needs.</p>
          ) : (
            <p className="muted">
              The agent itself is fine: it reaches the server and runs its checks. The checks above are down.
            </p>
          )
        ) : (
          <ul className="problems">
            {problems.map((problem) => (
              <li key={problem.kind} className={`problem problem-${problem.severity} problem-${problem.kind}`}>
                <span>{problem.message}</span>
                {problem.action === 'none' ? null : (
                  <button
                    type="button"
                    onClick={() => act(problem.action)}
                    disabled={
                      (problem.action === 'sync-now' && sync.pending) ||
                      (problem.action === 'upload-now' && upload.pending)
                    }
                  >
                    {problem.actionLabel}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="cards">
        <article className="card" aria-labelledby="card-monitor">
          <h2 id="card-monitor">This monitor</h2>
          <dl className="facts">
            <dt>Enrolled as</dt>
            <dd>{identity.name ?? '—'}</dd>
            <dt>Monitor id</dt>
            <dd>
              <code>{identity.monitorId}</code>
            </dd>
            <dt>Server</dt>
            <dd className="wrap">{identity.server}</dd>
            <dt>Location</dt>
            <dd>
              {[identity.city, identity.region, identity.country]
                .filter((v) => v !== undefined && v !== '')
                .join(', ') || '—'}
            </dd>
            {identity.enrolled_at === undefined ? null : (
              <>
                <dt>Enrolled</dt>
                <dd>{dateTime(identity.enrolled_at)}</dd>
              </>
            )}
          </dl>
        </article>

        <article className="card" aria-labelledby="card-link">
          <h2 id="card-link">Connection</h2>
          <dl className="facts">
            <dt>Server</dt>
            <dd>
              <span className={server.tone === 'muted' ? 'muted' : `${server.tone}-text`}>{server.text}</span>
            </dd>
            <dt>Last contact</dt>
            <dd>{ago(connectivity.lastContactAt, now)}</dd>
            <dt>This machine’s network</dt>
            <dd>
              {/* A fact about this machine, never the headline: plain while online, red while offline. */}
              {connectivity.online ? (
                'Online'
              ) : (
                <span className="bad-text">Offline since {dateTime(connectivity.offlineSince)}</span>
              )}
            </dd>
            <dt>Last sync</dt>
            <dd>
              {ago(snapshot.sync.lastOkAt, now)}
              {syncFailure === undefined ? null : <span className="bad-text"> — {syncFailure}</span>}
            </dd>
            <dt>Last upload</dt>
            <dd>
              {ago(snapshot.upload.lastOkAt, now)}
              {uploadFailure === undefined ? null : <span className="bad-text"> — {uploadFailure}</span>}
            </dd>
            <dt>Running checks</dt>
            <dd>
              {snapshot.paused ? <span className="warn-text">Paused — no check runs until you resume</span> : 'Yes'}
            </dd>
            <dt>Checks</dt>
            <dd>{countsLine(counts, snapshot.paused || snapshot.auth === 'monitor-disabled')}</dd>
            <dt>Unsent results</dt>
            <dd>
              <button type="button" className="link" onClick={() => navigate({ view: 'unsent' })}>
                {count(outbox.unsent, 'result')}
              </button>
              {outbox.oldestRanAt === undefined ? null : (
                <span className="muted"> (oldest {ago(outbox.oldestRanAt, now)})</span>
              )}
            </dd>
          </dl>
        </article>
      </div>
    </ViewFrame>
  );
}
