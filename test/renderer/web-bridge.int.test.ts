// The renderer's web bridge against a real dashboard server (in-process, with a real agent):
// invoke over POST, events over the SSE stream, and a stale token said as such.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAgent, type Agent } from '../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../src-main/agent/identity/key-vault.ts';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { fileSettingsStore } from '../../src-main/cli/dashboard/settings-file.ts';
import { startDashboard, type Dashboard } from '../../src-main/cli/dashboard/server.ts';
import { webHostActions } from '../../src-main/cli/dashboard/web-host.ts';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { connectionEvent } from '../../src-renderer/bridge/connection.ts';
import { createWebBridge } from '../../src-renderer/bridge/web-bridge.ts';
import { tempDataDir } from '../support/cli.ts';

describe('web bridge', () => {
  let agent: Agent;
  let dashboard: Dashboard;
  let base: string;
  let token: string;
  const connection: string[] = [];

  beforeAll(async () => {
    const target = new EventTarget();
    target.addEventListener(connectionEvent, (e) => connection.push(String((e as CustomEvent).detail)));
    vi.stubGlobal('window', target);
    const dataDir = await tempDataDir();
    agent = createAgent({ dataDir, vault: fileKeyVault(dataDir) });
    await agent.start();
    dashboard = await startDashboard({
      agent,
      settings: fileSettingsStore(dataDir),
      host: webHostActions(dataDir, silentLogger),
      log: silentLogger,
      port: 0,
      rendererRoot: undefined,
    });
    const url = new URL(dashboard.url);
    base = url.origin;
    token = url.searchParams.get('token') ?? '';
  });
  afterAll(async () => {
    await dashboard.close();
    await agent.stop();
    vi.unstubAllGlobals();
  });

  it('invokes channels and receives the first snapshot as an event', async () => {
    const bridge = createWebBridge(token, base);
    const info = await bridge.invoke('app:info', {});
    expect(info).toMatchObject({ ok: true, value: { host: 'web' } });
    let off = (): void => undefined;
    const first = await new Promise<AgentSnapshot>((resolve) => (off = bridge.on('agent:state-changed', resolve)));
    off(); // the last listener gone closes the stream
    expect(first.enrolled).toBe(false);
    expect(connection).toContain('connected');
    const refused = await bridge.invoke('agent:enroll', {
      server: 'ftp://x',
      token: 't',
      name: 'n',
      region: 'r',
      country: 'c',
      city: 'c',
    });
    expect(refused).toMatchObject({ ok: true, value: { ok: false, kind: 'usage' } });
  });

  it('says that a stale token must be replaced', async () => {
    const bridge = createWebBridge('stale-token', base);
    const answer = await bridge.invoke('agent:snapshot', {});
    expect(answer.ok ? undefined : answer.error).toEqual({ kind: 'token-refused' });
    expect(answer.ok ? '' : ipcErrorWords(answer.error)).toContain('newest URL');
    expect(connection).toContain('unauthorized');
  });

  it('says when the agent does not answer at all', async () => {
    const bridge = createWebBridge(token, 'http://127.0.0.1:9');
    const answer = await bridge.invoke('agent:snapshot', {});
    expect(answer.ok ? undefined : answer.error).toEqual({ kind: 'no-answer' });
    expect(answer.ok ? '' : ipcErrorWords(answer.error)).toContain('still running');
  });
});
