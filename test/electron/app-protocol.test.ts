// The app:// protocol as the window's session serves it: the renderer folder and nothing
// outside it, always with the Content-Security-Policy; and no permission granted, ever.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { contentSecurityPolicy, isAppUrl } from '../../src-main/electron/app-protocol.ts';
import { setupSession } from '../../src-main/electron/session.ts';
import { FakeSession } from './fake-electron.ts';
import { tempDir } from './support.ts';

let dir: { path: string; remove(): Promise<void> };
const session = new FakeSession();
const secret = 'TOP-SECRET-OUTSIDE-THE-RENDERER';

beforeAll(async () => {
  dir = await tempDir('protocol-');
  const root = join(dir.path, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Uptime Agent</title>');
  await writeFile(join(root, 'assets', 'app.js'), 'console.log("hi")');
  await writeFile(join(dir.path, 'secret.txt'), secret);
  setupSession({ session, rendererRoot: root, log: silentLogger });
});
afterAll(() => dir.remove());

describe('serving', () => {
  it.each([
    { url: 'app://agent/index.html', type: 'text/html; charset=utf-8', body: '<!doctype html>' },
    { url: 'app://agent/', type: 'text/html; charset=utf-8', body: '<!doctype html>' },
    { url: 'app://agent/assets/app.js?v=1#x', type: 'text/javascript; charset=utf-8', body: 'console.log' },
  ])('$url', async ({ url, type, body }) => {
    const response = await session.fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain(body);
  });

  it('has a strict policy', () => {
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "connect-src 'self'",
      "img-src 'self' data:",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(contentSecurityPolicy.split('; ')).toContain(directive);
    }
    expect(contentSecurityPolicy).not.toMatch(/unsafe-eval|unsafe-inline|\*/);
  });

  it('answers a missing file with 404 and a reason, with the policy too', async () => {
    const response = await session.fetch('app://agent/nope.js');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy);
    expect(await response.text()).toMatch(/reinstall/);
  });

  it('serves only GET and HEAD', async () => {
    expect((await session.fetch('app://agent/index.html', { method: 'POST', body: 'x' })).status).toBe(405);
    const head = await session.fetch('app://agent/index.html', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('path traversal', () => {
  it.each([
    'app://agent/..%2fsecret.txt',
    'app://agent/%2e%2e%2fsecret.txt',
    'app://agent/assets/..%2f..%2fsecret.txt',
    'app://agent/assets/%2E%2E%2F%2E%2E%2Fsecret.txt',
    'app://agent/..%5csecret.txt',
    'app://agent/%2e%2e/secret.txt',
    'app://agent/../../secret.txt',
    'app://agent/index.html%00.js',
    'app://elsewhere/index.html',
  ])('%s is refused and leaks nothing', async (url) => {
    const response = await session.fetch(url);
    expect([403, 404]).toContain(response.status);
    expect(await response.text()).not.toContain(secret);
  });

  it('refuses an encoded escape outright (403), not merely by missing', async () => {
    expect((await session.fetch('app://agent/..%2fsecret.txt')).status).toBe(403);
    expect((await session.fetch('app://agent/assets/..%2f..%2fsecret.txt')).status).toBe(403);
  });
});

describe('origin', () => {
  it.each([
    { url: 'app://agent/index.html', app: true },
    { url: 'app://agent', app: true },
    { url: 'app://agent.evil/', app: false },
    { url: 'app://evil/', app: false },
    { url: 'https://agent/', app: false },
    { url: 'not a url', app: false },
  ])('$url → $app', ({ url, app }) => expect(isAppUrl(url)).toBe(app));
});

describe('permissions', () => {
  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal'])(
    'denies %s when asked and when checked',
    (permission) => {
      let granted: boolean | undefined;
      session.requestHandler?.({}, permission, (g) => (granted = g));
      expect(granted).toBe(false);
      expect(session.checkHandler?.({}, permission)).toBe(false);
    },
  );
});
