// The agent's state in one phrase, always visible in the top bar.
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';

export function statusOf(snapshot: AgentSnapshot): { tone: 'ok' | 'warn' | 'bad' | 'idle'; text: string } {
  if (!snapshot.enrolled) return { tone: 'idle', text: 'Not enrolled' };
  if (snapshot.auth === 'key-rejected') return { tone: 'bad', text: 'Key refused by the server' };
  if (snapshot.auth === 'monitor-disabled') return { tone: 'bad', text: 'Disabled on the server' };
  if (!snapshot.connectivity.online) return { tone: 'bad', text: 'Offline' };
  if (snapshot.paused) return { tone: 'warn', text: 'Paused' };
  if (snapshot.counts.down > 0) return { tone: 'warn', text: `${snapshot.counts.down} down` };
  return { tone: 'ok', text: 'Online' };
}

export function StatusPill({ snapshot }: { snapshot: AgentSnapshot }) {
  const { tone, text } = statusOf(snapshot);
  return (
    <span className={`pill pill-${tone}`} role="status" aria-label={`Agent status: ${text}`}>
      <span className="pill-dot" aria-hidden="true" />
      {text}
    </span>
  );
}
