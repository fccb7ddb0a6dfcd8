// A check's state in words and colour (never colour alone).
import type { CheckHealth } from '../../src-main/ipc/contract.ts';

export const healthLabels: Record<CheckHealth, string> = {
  up: 'Up',
  down: 'Down',
  pending: 'Pending',
  skipped: 'Skipped (offline)',
  paused: 'Paused',
  disabled: 'Disabled',
  'not-run': 'Not run',
};

export function HealthBadge({ health }: { health: CheckHealth }) {
  return (
    <span className={`badge badge-${health}`}>
      <span className="badge-dot" aria-hidden="true" />
      {healthLabels[health]}
    </span>
  );
}
