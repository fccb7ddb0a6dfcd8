// The window: a bar with the agent's state, the view list, and the open view. Before the first
// snapshot it says it is connecting; when the agent cannot be reached it says what to do.
import { useEffect, useMemo, useState } from 'react';
import type { ViewName } from '../src-main/ipc/contract.ts';
import { Notice } from './components/Notice.tsx';
import { Spinner } from './components/Spinner.tsx';
import { EnrollView } from './enroll/EnrollView.tsx';
import { StatusPill } from './components/StatusPill.tsx';
import { useAgent } from './state/agent-context.tsx';
import { NavigationContext, type Navigation, type Place } from './state/navigation.tsx';
import { ChecksView } from './views/ChecksView.tsx';
import { OutagesView } from './views/OutagesView.tsx';
import { OverviewView } from './views/OverviewView.tsx';
import { PrivateView } from './views/PrivateView.tsx';
import { SettingsView } from './views/SettingsView.tsx';
import { UnsentView } from './views/UnsentView.tsx';

const menu: { view: Exclude<ViewName, 'enroll'>; label: string }[] = [
  { view: 'overview', label: 'Overview' },
  { view: 'checks', label: 'Checks' },
  { view: 'unsent', label: 'Unsent results' },
  { view: 'outages', label: 'Outages' },
  { view: 'private', label: 'Private definitions' },
  { view: 'settings', label: 'Settings' },
];

/** What a view's count means, for screen readers. */
const badgeMeaning: Partial<Record<ViewName, string>> = { checks: 'down', unsent: 'waiting', private: 'need attention' };

function CurrentView({ place }: { place: Place }) {
  switch (place.view) {
    case 'overview':
      return <OverviewView />;
    case 'checks':
      return <ChecksView initialGuid={place.guid} />;
    case 'unsent':
      return <UnsentView />;
    case 'outages':
      return <OutagesView />;
    case 'private':
      return <PrivateView />;
    case 'settings':
      return <SettingsView />;
    case 'enroll':
      return <EnrollView reclaimId={place.reclaimId} />;
  }
}

export function App() {
  const { bridge, snapshot, loadError, connection, retry } = useAgent();
  const [place, setPlace] = useState<Place>({ view: 'overview' });
  const [flash, setFlash] = useState<string | undefined>();
  const [sentToEnroll, setSentToEnroll] = useState(false);

  useEffect(() => bridge.on('app:navigate', (target) => setPlace({ view: target.view, ...(target.guid === undefined ? {} : { guid: target.guid }) })), [bridge]);

  // First run: an agent that is not enrolled opens on the enrollment form, once.
  useEffect(() => {
    if (snapshot !== undefined && !snapshot.enrolled && !sentToEnroll) {
      setSentToEnroll(true);
      setPlace({ view: 'enroll' });
    }
  }, [snapshot, sentToEnroll]);

  const navigation = useMemo<Navigation>(() => ({ place, navigate: setPlace, flash, setFlash }), [place, flash]);

  const badges: Partial<Record<ViewName, number>> = snapshot === undefined ? {} : {
    checks: snapshot.counts.down,
    unsent: snapshot.outbox.unsent,
    private: snapshot.privateDefinitions.missing.length + snapshot.privateDefinitions.problems.filter((p) => p.severity === 'error').length,
  };

  return (
    <NavigationContext.Provider value={navigation}>
      <a className="skip-link" href="#main">Skip to content</a>
      <div className="app">
        <header className="topbar">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">
              <svg width="18" height="18" viewBox="0 0 18 18"><path d="M1 10h4l2-6 4 10 2-4h4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" /></svg>
            </span>
            <span>Uptime Agent</span>
          </div>
          {snapshot === undefined ? null : <StatusPill snapshot={snapshot} />}
        </header>
        <nav className="nav" aria-label="Views">
          <ul>
            {menu.map((item) => (
              <li key={item.view}>
                <button
                  type="button"
                  className="nav-item"
                  aria-current={place.view === item.view ? 'page' : undefined}
                  onClick={() => setPlace({ view: item.view })}
                >
                  <span>{item.label}</span>
                  {(badges[item.view] ?? 0) > 0 ? (
                    <>
                      <span className={`nav-badge nav-badge-${item.view}`} aria-hidden="true">{badges[item.view]}</span>
                      <span className="visually-hidden">{` (${badges[item.view] ?? 0} ${badgeMeaning[item.view] ?? ''})`}</span>
                    </>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          {connection === 'reconnecting' ? (
            <Notice tone="warning" title="Lost the connection to the agent">
              Reconnecting… If uptime-agent was stopped, start it again; this page picks it up by itself.
            </Notice>
          ) : null}
          {connection === 'unauthorized' ? (
            <Notice tone="error" title="This page’s access link is no longer valid">
              The agent was restarted, so it has a new access token. Open the newest “dashboard:” URL that uptime-agent printed.
            </Notice>
          ) : null}
          {snapshot === undefined ? (
            loadError === undefined ? (
              <div className="loading"><Spinner label="Connecting to the agent…" /></div>
            ) : (
              <Notice tone="error" title="The agent’s state could not be loaded" actions={<button type="button" onClick={retry}>Try again</button>}>
                <p>{loadError}</p>
              </Notice>
            )
          ) : (
            <CurrentView key={`${place.view}:${place.guid ?? ''}:${place.reclaimId ?? ''}`} place={place} />
          )}
        </main>
      </div>
    </NavigationContext.Provider>
  );
}
