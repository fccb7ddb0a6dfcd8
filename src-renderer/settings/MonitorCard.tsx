// The monitor this agent is: enroll again, reclaim, or forget it (asked twice: it cannot be undone).
import { useCallback, useState } from 'react';
import { Notice } from '../components/Notice.tsx';
import { sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';
import { useNavigation } from '../state/navigation.tsx';

export function MonitorCard({ serverUrl }: { serverUrl: string }) {
  const { bridge, snapshot, acceptSnapshot } = useAgent();
  const { navigate } = useNavigation();
  const [confirming, setConfirming] = useState(false);
  const forget = useCommand(useCallback(() => bridge.invoke('agent:forget', {}), [bridge]));
  const identity = snapshot?.identity;

  const forgetNow = async (): Promise<void> => {
    const next = await forget.run();
    if (next !== undefined) {
      setConfirming(false);
      acceptSnapshot(next);
    }
  };

  return (
    <section className="card" aria-labelledby="monitor-title">
      <h2 id="monitor-title">Monitor</h2>
      <dl className="facts">
        <dt>Server</dt>
        <dd className="wrap">{identity?.server ?? (serverUrl === '' ? 'none yet' : serverUrl)}</dd>
        <dt>Monitor id</dt>
        <dd>{identity === undefined ? 'not enrolled' : <code>{identity.monitorId}</code>}</dd>
        <dt>Checks may reach</dt>
        <dd>
          {snapshot?.egressPolicy === 'strict'
            ? 'public addresses only: this monitor joins a shared fleet, so private, loopback and link-local addresses are refused'
            : 'any address, this network included'}
        </dd>
      </dl>
      <div className="button-row">
        <button type="button" onClick={() => navigate({ view: 'enroll' })}>
          {identity === undefined ? 'Enroll…' : 'Enroll again…'}
        </button>
        <button
          type="button"
          onClick={() =>
            navigate({ view: 'enroll', ...(identity === undefined ? {} : { reclaimId: identity.monitorId }) })
          }
        >
          Reclaim a monitor…
        </button>
        {identity === undefined ? null : (
          <button type="button" className="danger" onClick={() => setConfirming(true)} disabled={confirming}>
            Forget this monitor…
          </button>
        )}
      </div>
      {confirming ? (
        <div className="confirm" role="alertdialog" aria-labelledby="forget-title" aria-describedby="forget-text">
          <p id="forget-title" className="notice-title">
            Forget monitor {identity?.monitorId}?
          </p>
          <p id="forget-text">
            This agent deletes its API key and check list and stops running checks. Unsent results stay on this machine
            for a later reclaim. To use this monitor again, reset its enrollment on the server and reclaim it.
          </p>
          <div className="button-row">
            <button
              type="button"
              className="danger"
              onClick={() => void forgetNow()}
              disabled={forget.pending}
              autoFocus
            >
              {forget.pending ? 'Forgetting…' : 'Forget it'}
            </button>
            <button type="button" onClick={() => setConfirming(false)} disabled={forget.pending}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {forget.error === undefined ? null : (
        <Notice tone="error" title="The monitor was not forgotten">
          {sentence(forget.error)} Try again.
        </Notice>
      )}
    </section>
  );
}
