// Placeholder window: the real views arrive with the UI issue.
export function App() {
  return (
    <main>
      <h1>Uptime Agent</h1>
      <p>The monitor agent is running. Its window is being built.</p>
    </main>
  );
}
