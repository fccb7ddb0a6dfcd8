// Settings: the shell's settings, the monitor (enroll again, reclaim, forget), and facts about
// this installation, with the key-storage warning first when there is one.
import { useEffect, useState } from 'react';
import type { Settings } from '../../src-main/ipc/contract.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { sentence } from '../format.ts';
import { AboutCard } from '../settings/AboutCard.tsx';
import { MonitorCard } from '../settings/MonitorCard.tsx';
import { SettingsForm } from '../settings/SettingsForm.tsx';
import { useAgent } from '../state/agent-context.tsx';
import { useNavigation } from '../state/navigation.tsx';

type Loaded = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; settings: Settings };

export function SettingsView() {
  const { bridge, info } = useAgent();
  const { navigate } = useNavigation();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    void bridge.invoke('settings:get', {}).then((result) => {
      if (live) setLoaded(result.ok ? { kind: 'ready', settings: result.value } : { kind: 'error', message: result.error });
    });
    return () => {
      live = false;
    };
  }, [bridge, attempt]);

  return (
    <ViewFrame title="Settings">
      {info?.keyStorageWarning === undefined ? null : (
        <Notice tone="warning" title="The API key is not encrypted by the operating system">{info.keyStorageWarning}</Notice>
      )}
      {loaded.kind === 'loading' ? <Spinner label="Loading settings…" /> : null}
      {loaded.kind === 'error' ? (
        <Notice tone="error" title="Settings could not be loaded" actions={<button type="button" onClick={() => setAttempt((n) => n + 1)}>Try again</button>}>
          {sentence(loaded.message)}
        </Notice>
      ) : null}
      <MonitorCard serverUrl={loaded.kind === 'ready' ? loaded.settings.serverUrl : ''} />
      {loaded.kind === 'ready' ? (
        <>
          <section className="card" aria-labelledby="private-file-title">
            <h2 id="private-file-title">Private definitions file</h2>
            <p>
              {loaded.settings.privateChecksFile === undefined || loaded.settings.privateChecksFile === '' ? 'None chosen.' : <code className="wrap">{loaded.settings.privateChecksFile}</code>}{' '}
              <button type="button" className="link" onClick={() => navigate({ view: 'private' })}>Change it in Private definitions</button>
            </p>
          </section>
          <SettingsForm settings={loaded.settings} onSaved={(settings) => setLoaded({ kind: 'ready', settings })} />
        </>
      ) : null}
      {info === undefined ? null : <AboutCard info={info} />}
    </ViewFrame>
  );
}
