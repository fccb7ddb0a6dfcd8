// The window: a bar with the agent's state, the view list, and the open view. Before the first
// snapshot it says it is connecting; when the agent cannot be reached it says what to do.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Notice } from './components/Notice.tsx';
import { Spinner } from './components/Spinner.tsx';
import { timeOfDay } from './format.ts';
import { EnrollView } from './enroll/EnrollView.tsx';
import { StatusPill } from './components/StatusPill.tsx';
import { useAgent } from './state/agent-context.tsx';
import { hashOf, placeFromHash } from './state/hash-route.ts';
import { NavigationContext, type Navigation, type Place, type RouteView } from './state/navigation.tsx';
import { backlogNeedsAttention, windowTitle } from './state/signals.ts';
import { ChecksView } from './views/ChecksView.tsx';
import { EventsView } from './views/EventsView.tsx';
import { OutagesView } from './views/OutagesView.tsx';
import { OverviewView } from './views/OverviewView.tsx';
import { PrivateView } from './views/PrivateView.tsx';
import { SettingsView } from './views/SettingsView.tsx';
import { UnsentView } from './views/UnsentView.tsx';

const menu: { view: Exclude<RouteView, 'enroll'>; label: string }[] = [
  { view: 'overview', label: 'Overview' },
  { view: 'checks', label: 'Checks' },
  { view: 'events', label: 'Events' },
  { view: 'unsent', label: 'Unsent results' },
  { view: 'outages', label: 'Outages' },
  { view: 'private', label: 'Private definitions' },
  { view: 'settings', label: 'Settings' },
];

/** What a view's count means, for screen readers. */
const badgeMeaning: Partial<Record<RouteView, string>> = {
  checks: 'down',
  unsent: 'waiting',
  private: 'need attention',
};

function CurrentView({ place }: { place: Place }) {
  switch (place.view) {
    case 'overview':
      return <OverviewView />;
    case 'checks':
      return <ChecksView selected={place.guid} />;
    case 'events':
      return <EventsView />;
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

/** Where the window opens: the place in the address (a reload, a link), else the overview. */
const initialPlace = (): Place => placeFromHash(window.location.hash) ?? { view: 'overview' };

export function App() {
  const { bridge, snapshot, loadError, connection, disconnectedAt, retry } = useAgent();
  const [place, setPlace] = useState<Place>(initialPlace);
  const [flash, setFlash] = useState<string | undefined>();
  const [sentToEnroll, setSentToEnroll] = useState(false);

  // The place lives in the hash: navigating adds a history entry, so Back returns to the view
  // before; Back and Forward (hashchange) move the window.
  const navigate = useCallback((next: Place) => {
    setPlace(next);
    const hash = hashOf(next);
    if (window.location.hash !== hash) window.history.pushState(null, '', hash);
  }, []);
  useEffect(() => {
    const follow = (): void => setPlace(initialPlace());
    window.addEventListener('popstate', follow);
    window.addEventListener('hashchange', follow);
    return () => {
      window.removeEventListener('popstate', follow);
      window.removeEventListener('hashchange', follow);
    };
  }, []);

  useEffect(
    () =>
      bridge.on('app:navigate', (target) =>
        navigate({ view: target.view, ...(target.guid === undefined ? {} : { guid: target.guid }) }),
      ),
    [bridge, navigate],
  );

  // First run: an agent that is not enrolled opens on the enrollment form, once.
  useEffect(() => {
    if (snapshot !== undefined && !snapshot.enrolled && !sentToEnroll) {
      setSentToEnroll(true);
      if (place.view !== 'enroll') navigate({ view: 'enroll' });
    }
  }, [snapshot, sentToEnroll, place.view, navigate]);

  useEffect(() => {
    document.title = windowTitle(snapshot, connection);
  }, [snapshot, connection]);

  const navigation = useMemo<Navigation>(() => ({ place, navigate, flash, setFlash }), [place, navigate, flash]);

  const badges: Partial<Record<RouteView, number>> =
    snapshot === undefined
      ? {}
      : {
          checks: snapshot.counts.down,
          unsent: backlogNeedsAttention(snapshot) ? snapshot.outbox.unsent + snapshot.outbox.rejectedCount : 0,
          private:
            snapshot.privateDefinitions.missing.length +
            snapshot.privateDefinitions.problems.filter((p) => p.severity === 'error').length,
        };
  const stale = connection !== 'connected' && snapshot !== undefined;

  return (
    <NavigationContext.Provider value={navigation}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="app">
        <header className="topbar">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">
              <svg width="18" height="18" viewBox="0 0 18 18">
                <path
                  d="M1 10h4l2-6 4 10 2-4h4"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
            </span>
            <span>Uptime Agent</span>
          </div>
          {snapshot === undefined ? null : <StatusPill snapshot={snapshot} disconnected={connection !== 'connected'} />}
        </header>
        <nav className="nav" aria-label="Views">
          <ul>
            {menu.map((item) => (
              <li key={item.view}>
                <button
                  type="button"
                  className="nav-item"
                  aria-current={place.view === item.view ? 'page' : undefined}
                  onClick={() => navigate({ view: item.view })}
                >
                  <span>{item.label}</span>
                  {(badges[item.view] ?? 0) > 0 ? (
                    <>
                      <span className={`nav-badge nav-badge-${item.view}`} aria-hidden="true">
                        {badges[item.view]}
                      </span>
                      <span className="visually-hidden">{` (${badges[item.view] ?? 0} ${badgeMeaning[item.view] ?? ''})`}</span>
                    </>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className={stale ? 'content stale' : 'content'} tabIndex={-1}>
          {connection === 'reconnecting' ? (
            <Notice
              tone="warning"
              title={`Disconnected from the agent${disconnectedAt === undefined ? '' : ` since ${timeOfDay(disconnectedAt)}`}`}
            >
              Reconnecting… What you see below is how things were then. If uptime-agent was stopped, start it again;
              this page picks it up by itself.
            </Notice>
          ) : null}
          {connection === 'unauthorized' ? (
            <Notice tone="error" title="This page’s access link is no longer valid">
              The agent answering here does not accept this page’s access token: it runs with another link (another data
              folder, or its saved link was removed). Open the link it printed as “dashboard:”, or run “uptime-agent
              dashboard-url” to print it again.
            </Notice>
          ) : null}
          {snapshot === undefined ? (
            loadError === undefined || connection === 'unauthorized' ? (
              connection === 'unauthorized' ? null : (
                <div className="loading">
                  <Spinner label="Connecting to the agent…" />
                </div>
              )
            ) : (
              <Notice
                tone="error"
                title="The agent’s state could not be loaded"
                actions={
                  <button type="button" onClick={retry}>
                    Try again
                  </button>
                }
              >
                <p>{loadError}</p>
              </Notice>
            )
          ) : (
            <div className="view-host">
              <CurrentView
                key={`${place.view}:${place.view === 'checks' ? '' : (place.guid ?? '')}:${place.reclaimId ?? ''}`}
                place={place}
              />
            </div>
          )}
        </main>
      </div>
    </NavigationContext.Provider>
  );
}
