// The one connection state, computed in the agent and published in live-state.json, as
// `status --json` (another process) reports it: connected after the first call, unreachable while
// a real reference server is stopped (since when, and why), connected again at the first
// successful call after it comes back.
import { afterEach, describe, expect, it } from 'vitest';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { runCli } from '../../support/cli.ts';

interface Connection {
  state: string;
  since: string | null;
  last_success_at: string | null;
}

async function statusConnection(dataDir: string): Promise<Connection | null> {
  const result = await runCli(['status', '--json', '--data-dir', dataDir]);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { connection: Connection | null }).connection;
}

describe('connection state', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('connected, unreachable while the server is stopped, connected again at its first answer', async () => {
    h = await enrolledAgent();
    expect(h.agent.snapshot().connection).toMatchObject({ state: 'connected' });
    const first = await statusConnection(h.dataDir);
    expect(first).toMatchObject({ state: 'connected' });
    expect(first?.last_success_at).not.toBeNull();

    await h.server.stop();
    const down = await eventually(
      () => {
        const c = h.agent.state().connection;
        return c.state === 'unreachable' ? c : undefined;
      },
      10_000,
      'unreachable',
    );
    // A call in flight when the server stops sees its connection reset; the calls after it are refused.
    expect(down.lastFailure?.kind).toBe('network');
    expect(['refused', 'reset']).toContain(down.lastFailure?.cause);
    const stopped = await statusConnection(h.dataDir);
    expect(stopped).toMatchObject({ state: 'unreachable', since: down.since });
    expect(Date.parse(stopped?.last_success_at ?? '')).toBeLessThanOrEqual(Date.parse(stopped?.since ?? ''));

    const backAt = Date.now();
    await h.server.start();
    const up = await eventually(
      () => {
        const c = h.agent.state().connection;
        return c.state === 'connected' ? c : undefined;
      },
      10_000,
      'connected again',
    );
    expect(Date.parse(up.since ?? '')).toBeGreaterThanOrEqual(backAt - 1_000);
    // Another call may have succeeded between the first answer and this poll, so the last success
    // is the first answer or later, never before it.
    expect(Date.parse(up.lastSuccessAt ?? '')).toBeGreaterThanOrEqual(Date.parse(up.since ?? ''));
    expect(await statusConnection(h.dataDir)).toMatchObject({ state: 'connected', since: up.since });
  });
});
