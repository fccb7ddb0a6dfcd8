// The sync answer for the largest check set the README advertises (45,000 checks, 10 headers
// each: 54 MiB, see bench/sync-answer.ts) is read, not refused at a fixed 32 MiB (issue 24 §13).
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src-main/agent/wire/api-client.ts';
import { wireLimits } from '../../../src-main/agent/wire/limits.ts';
import { startScriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';
import { wireCheck } from '../../support/wire-fixtures.ts';

let server: ScriptedServer | undefined;
afterEach(() => server?.close());

describe('the sync answer of the largest advertised check set', () => {
  it('45,000 checks with 10 headers each are read and parsed', async () => {
    const count = 45_000;
    const headers = Object.fromEntries(
      Array.from({ length: wireLimits.headersPerCheck }, (_, h) => [
        `X-Custom-Header-${h}`,
        `value-${h}-${'x'.repeat(24)}`,
      ]),
    );
    const checks = Array.from({ length: count }, (_, i) =>
      wireCheck({
        guid: `check-${i}-4f1c-4a2b-9d3e-000000000000`,
        url: `https://service-${i}.customers.example.com/api/v2/health/ready?probe=uptime&region=eu-west-1`,
        headers,
        post_data: '{"probe":"uptime","verbose":false}',
      }),
    );
    const body = JSON.stringify({ checks, server_time: '2026-11-21T10:00:00.123456Z' });
    expect(Buffer.byteLength(body)).toBeGreaterThan(32 * 1024 * 1024);
    server = await startScriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const client = createApiClient({ baseUrl: server.url, userAgent: 'test' });
    const answer = await client.checks('key', undefined);
    await client.close();
    expect(answer.ok ? answer.value.checks.length : answer.error.message).toBe(count);
  });
});
