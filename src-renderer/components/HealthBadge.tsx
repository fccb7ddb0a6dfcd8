// A check's state in words and colour (never colour alone).
import type { CheckHealth } from '../../src-main/ipc/contract.ts';
import { healthLabels } from '../../src-main/ipc/agent-summary.ts';

export function HealthBadge({ health }: { health: CheckHealth }) {
  return (
    <span className={`badge badge-${health}`}>
      <span className="badge-dot" aria-hidden="true" />
      {healthLabels[health]}
    </span>
  );
}
