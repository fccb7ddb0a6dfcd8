// Shown while the agent works; the label is what a screen reader hears.
export function Spinner({ label }: { label: string }) {
  return (
    <span className="spinner-row" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </span>
  );
}
