// Facts about this installation: version, folders, where the logs are, how the key is kept.
import { useCallback } from 'react';
import type { AppInfo } from '../../src-main/ipc/contract.ts';
import { Notice } from '../components/Notice.tsx';
import { sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';

export function AboutCard({ info }: { info: AppInfo }) {
  const { bridge } = useAgent();
  const openLogs = useCommand(useCallback(() => bridge.invoke('app:open-logs', {}), [bridge]));
  return (
    <section className="card" aria-labelledby="about-title">
      <h2 id="about-title">About this agent</h2>
      <dl className="facts">
        <dt>Version</dt>
        <dd>{info.version}</dd>
        <dt>Data folder</dt>
        <dd className="wrap">
          <code>{info.dataFolder}</code>
        </dd>
        <dt>Logs</dt>
        <dd className="wrap">{info.host === 'web' ? info.logsFolder : <code>{info.logsFolder}</code>}</dd>
        <dt>API key storage</dt>
        <dd>{info.keyStorage}</dd>
      </dl>
      {info.host === 'web' ? null : (
        <div className="button-row">
          <button type="button" onClick={() => void openLogs.run()} disabled={openLogs.pending}>
            Open logs folder
          </button>
        </div>
      )}
      {openLogs.error === undefined ? null : (
        <Notice tone="error" title="The logs folder did not open">
          {sentence(openLogs.error)} Open the folder above by hand.
        </Notice>
      )}
    </section>
  );
}
