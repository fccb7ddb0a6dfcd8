// The dashboard's HTTP surface, in-process with a real (not enrolled) agent: the contract over
// HTTP, and every access rule (token, Origin, Host, content type, paths).
import { request } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type Agent } from '../../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { fileSettingsStore, readSettingsFile } from '../../../src-main/cli/dashboard/settings-file.ts';
import { startDashboard, type Dashboard } from '../../../src-main/cli/dashboard/server.ts';
import { webHostActions } from '../../../src-main/cli/dashboard/web-host.ts';
import { tokenHeader } from '../../../src-main/ipc/web-protocol.ts';
import { tempDataDir } from '../../support/cli.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; firstChunkOnly?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
          if (options.firstChunkOnly === true) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('web dashboard server', () => {
  let agent: Agent;
  let dashboard: Dashboard;
  let dataDir: string;
  let token: string;
  let port: number;

  beforeAll(async () => {
    dataDir = await tempDataDir();
    const renderer = join(dataDir, 'renderer');
    await mkdir(renderer);
    await writeFile(join(renderer, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(join(dataDir, 'secret.txt'), 'not for the page');
    agent = createAgent({ dataDir, vault: fileKeyVault(dataDir) });
    await agent.start();
    dashboard = await startDashboard({
      agent,
      settings: fileSettingsStore(dataDir),
      host: webHostActions(dataDir, silentLogger),
      log: silentLogger,
      port: 0,
      rendererRoot: renderer,
    });
    const url = new URL(dashboard.url);
    token = url.searchParams.get('token') ?? '';
    port = Number(url.port);
  });
  afterAll(async () => {
    await dashboard.close();
    await agent.stop();
  });

  const ipc = (channel: string, args: unknown, headers: Record<string, string> = {}) =>
    call(port, `/api/ipc/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [tokenHeader]: token, ...headers },
      body: JSON.stringify(args),
    });

  it('prints a loopback URL with a token', () => {
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  });

  it('serves the page with a strict Content-Security-Policy', async () => {
    const page = await call(port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers the contract over HTTP', async () => {
    const snapshot = await ipc('agent:snapshot', {});
    expect(snapshot.status).toBe(200);
    expect(JSON.parse(snapshot.body)).toMatchObject({ ok: true, value: { enrolled: false } });
    expect(JSON.parse((await ipc('app:info', {})).body)).toMatchObject({
      ok: true,
      value: { host: 'web', dataFolder: dataDir },
    });
    expect(JSON.parse((await ipc('outages:list', {})).body)).toEqual({ ok: true, value: [] });
    expect((await ipc('checks:history', { guid: '' })).body).toContain(
      '"ok":false,"error":{"kind":"bad-arguments","field":"guid"}',
    );
    expect((await ipc('app:open-external', { url: 'https://example.com/' })).body).toContain('"kind":"no-links-here"');
  });

  it('keeps settings in settings.json', async () => {
    const saved = await ipc('settings:update', { connectivityTargets: ['192.0.2.1:443'] });
    expect(JSON.parse(saved.body)).toMatchObject({ ok: true });
    expect(readSettingsFile(dataDir).connectivityTargets).toEqual(['192.0.2.1:443']);
  });

  it('streams events, starting with the current snapshot', async () => {
    const events = await call(port, '/api/events', { headers: { [tokenHeader]: token }, firstChunkOnly: true });
    expect(events.headers['content-type']).toContain('text/event-stream');
    expect(events.body).toMatch(/^event: agent:state-changed\ndata: \{.*"enrolled":false/);
  });

  interface Refusal {
    name: string;
    path: string;
    token: string | undefined;
    headers: Record<string, string>;
    status: number;
    method?: string;
  }
  it.each<Refusal>([
    { name: 'no token', path: '/api/ipc/agent:snapshot', token: undefined, headers: {}, status: 401 },
    { name: 'a wrong token', path: '/api/ipc/agent:snapshot', token: 'guess', headers: {}, status: 401 },
    {
      name: 'no token on the event stream',
      path: '/api/events',
      token: undefined,
      headers: {},
      status: 401,
      method: 'GET',
    },
    {
      name: 'a foreign Origin',
      path: '/api/ipc/agent:snapshot',
      token: 'ours',
      headers: { origin: 'http://evil.example' },
      status: 403,
    },
    {
      name: 'a foreign Origin on the page',
      path: '/',
      token: undefined,
      headers: { origin: 'http://evil.example' },
      status: 403,
      method: 'GET',
    },
    {
      name: 'a rebinding Host',
      path: '/',
      token: undefined,
      headers: { host: 'evil.example:80' },
      status: 403,
      method: 'GET',
    },
    {
      name: 'a rebinding Host with the token',
      path: '/api/ipc/agent:snapshot',
      token: 'ours',
      headers: { host: 'evil.example:80' },
      status: 403,
    },
    {
      name: 'a form content type',
      path: '/api/ipc/agent:forget',
      token: 'ours',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      status: 415,
    },
    { name: 'an unknown channel', path: '/api/ipc/agent:format-disk', token: 'ours', headers: {}, status: 404 },
    {
      name: 'GET on a channel',
      path: '/api/ipc/agent:snapshot',
      token: 'ours',
      headers: {},
      status: 405,
      method: 'GET',
    },
    {
      name: 'a path outside the renderer',
      path: '/%2e%2e/secret.txt',
      token: undefined,
      headers: {},
      status: 404,
      method: 'GET',
    },
  ])('refuses $name', async (c) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (c.token !== undefined) headers[tokenHeader] = c.token === 'ours' ? token : c.token;
    const answer = await call(port, c.path, {
      method: c.method ?? 'POST',
      headers: { ...headers, ...c.headers },
      ...(c.method === 'GET' ? {} : { body: '{}' }),
    });
    expect(answer.status).toBe(c.status);
    expect(answer.body).not.toContain('not for the page');
  });
});
