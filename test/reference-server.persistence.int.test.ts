// Persistence across close and reopen with a database file, and the command line (the pure
// helpers, timestamps and capping, are in reference-server.persistence.test.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer } from './reference-server/index.ts';
import { call, enroll, manualClock, nth, ok, result, withOrg } from './reference-server/testing.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reference-server-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence', () => {
  it('keeps monitors, keys, checks, cursors and results across close and reopen', async () => {
    const dbPath = join(dir, 'server.db');
    const clock = manualClock();
    const first = await startReferenceServer({ dbPath, now: clock.now });
    const org = withOrg(first);
    const monitor = await enroll(first, org.token);
    const check = first.admin.createCheck({ name: 'c', url: 'http://127.0.0.1:1/', orgId: org.orgId });
    first.admin.assign(check.guid, monitor.monitorId);
    const before = ok(await call(first.url, 'GET', '/api/checks', { auth: monitor.apiKey })) as { server_time: string };
    const body = { results: [result(check.guid, '2026-11-21T10:00:00Z')] };
    expect(ok(await call(first.url, 'POST', '/api/results', { auth: monitor.apiKey, body }))).toEqual({ accepted: 1 });
    await first.close();

    clock.advance(-3_600_000); // the clock even goes back an hour
    const second = await startReferenceServer({ dbPath, now: clock.now });
    try {
      expect(second.monitor(monitor.monitorId)?.enrolled).toBe(true);
      expect((await call(second.url, 'GET', '/api/ping', { auth: monitor.apiKey })).status).toBe(200);
      expect((await enroll(second, org.token)).monitorId).not.toBe(monitor.monitorId);
      expect(ok(await call(second.url, 'POST', '/api/results', { auth: monitor.apiKey, body }))).toEqual({
        accepted: 1,
      });
      expect(second.results()).toHaveLength(1);
      second.admin.updateCheck(check.guid, { name: 'after reopen' });
      const after = ok(
        await call(second.url, 'GET', `/api/checks?since=${before.server_time}`, { auth: monitor.apiKey }),
      ) as { checks: { name: string; updated_at: string }[] };
      expect(after.checks.map((c) => c.name)).toEqual(['after reopen']);
      expect(nth(after.checks, 0).updated_at > before.server_time).toBe(true);
    } finally {
      await second.close();
    }
  });
});

describe('command line', () => {
  it('prints the URL and a token, serves, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['test/reference-server/main.ts', '--print-json', '--db', join(dir, 'cli.db')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', () => reject(new Error('server exited before printing')));
    });
    const printed = JSON.parse(line) as { url: string; token: string };
    expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const enrolled = ok(
      await call(printed.url, 'POST', '/api/enroll', {
        auth: printed.token,
        body: { name: 'n', region: 'r', country: 'c', city: 'x' },
      }),
    ) as { api_key: string };
    const delta = ok(await call(printed.url, 'GET', '/api/checks', { auth: enrolled.api_key })) as {
      checks: { guid: string; url: string }[];
    };
    expect(delta.checks.map((c) => c.guid)).toContain('demo-private');
    expect(delta.checks.find((c) => c.guid === 'demo-private')?.url).toBe('');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('rejects bad flags with exit code 2', async () => {
    const child = spawn(process.execPath, ['test/reference-server/main.ts', '--seed', 'lots'], { stdio: 'ignore' });
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(2);
  });
});
