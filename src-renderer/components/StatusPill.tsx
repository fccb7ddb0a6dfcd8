// The agent's state in one phrase, always visible in the top bar: red when any check is down or
// the agent cannot do its job, amber when degraded (paused, results waiting too long).
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { summarizeAgent } from '../../src-main/ipc/agent-summary.ts';

/** While the link to the agent is down, the last state is not the agent's state now: say so. */
export function StatusPill({ snapshot, disconnected = false }: { snapshot: AgentSnapshot; disconnected?: boolean }) {
  const { tone, label: text } = disconnected ? { tone: 'idle', label: 'Disconnected' } : summarizeAgent(snapshot);
  return (
    <span className={`pill pill-${tone}`} role="status" aria-label={`Agent status: ${text}`}>
      <span className="pill-dot" aria-hidden="true" />
      {text}
    </span>
  );
}
