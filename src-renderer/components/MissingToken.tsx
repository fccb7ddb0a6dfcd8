// A dashboard page opened without its access link: say where the link comes from.
export function MissingToken() {
  return (
    <main className="standalone">
      <h1>Open the dashboard from its link</h1>
      <p>
        This page needs the access token that <code>uptime-agent run --dashboard</code> printed when it started, on a
        line like <code>dashboard: http://127.0.0.1:PORT/?token=…</code>. Open that exact URL in this browser.
      </p>
      <p>If the agent was restarted, it printed a new link: the old one no longer works.</p>
    </main>
  );
}
