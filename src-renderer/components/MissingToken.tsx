// A dashboard page opened without its access link: say where the link comes from.
export function MissingToken() {
  return (
    <main className="standalone">
      <h1>Open the dashboard from its link</h1>
      <p>
        This page needs the access link the agent printed when it started its dashboard, on a line like{' '}
        <code>dashboard: http://127.0.0.1:PORT/?token=…</code>. Open that exact address in this browser.
      </p>
      <p>
        The link stays the same when the agent restarts; <code>uptime-agent dashboard-url</code> prints it again.
      </p>
    </main>
  );
}
