// Settings: the shell's settings, the monitor (enroll again, reclaim, forget), and facts about
// this installation, with the key-storage warning first when there is one.
import { Notice } from '../components/Notice.tsx';
import { QueryStatus } from '../components/QueryStatus.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { AboutCard } from '../settings/AboutCard.tsx';
import { MonitorCard } from '../settings/MonitorCard.tsx';
import { SettingsForm } from '../settings/SettingsForm.tsx';
import { useAgent } from '../state/agent-context.tsx';
import { useNavigation } from '../state/navigation.tsx';
import { useQuery } from '../state/use-query.ts';

export function SettingsView() {
  const { info } = useAgent();
  const { navigate } = useNavigation();
  const { state: loaded, retry, replace } = useQuery('settings:get', {});

  return (
    <ViewFrame title="Settings">
      {info?.keyStorageWarning === undefined ? null : (
        <Notice tone="warning" title="The API key is not encrypted by the operating system">
          {info.keyStorageWarning}
        </Notice>
      )}
      <QueryStatus state={loaded} loading="Loading settings…" failed="Settings could not be loaded" retry={retry} />
      <MonitorCard serverUrl={loaded.kind === 'ready' ? loaded.value.serverUrl : ''} />
      {loaded.kind === 'ready' ? (
        <>
          <section className="card" aria-labelledby="private-file-title">
            <h2 id="private-file-title">Private definitions file</h2>
            <p>
              {loaded.value.privateChecksFile === undefined || loaded.value.privateChecksFile === '' ? (
                'None chosen.'
              ) : (
                <code className="wrap">{loaded.value.privateChecksFile}</code>
              )}{' '}
              <button type="button" className="link" onClick={() => navigate({ view: 'private' })}>
                Change it in Private definitions
              </button>
            </p>
          </section>
          <SettingsForm settings={loaded.value} onSaved={replace} />
        </>
      ) : null}
      {info === undefined ? null : <AboutCard info={info} />}
    </ViewFrame>
  );
}
