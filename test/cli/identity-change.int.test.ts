// `uptime-agent enroll` (a new monitor, then --reclaim) while `run` is going: the running agent
// follows within seconds, results stay with the monitor that produced them (the previous
// monitor's unsent ones kept aside, never sent under the new key), and a reclaim sends them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { tempDataDir } from '../support/cli.ts';
import { enrollDataDir, startRun, statusJson } from '../support/cli-agent.ts';
import { startHttpTarget, type HttpTarget } from '../targets/index.ts';

interface StatusJson {
  monitor_id: string | null;
  unsent_results: number;
  aside_results: { monitor_id: string; count: number }[];
}

describe('identity changes while uptime-agent run is going', () => {
  let server: ReferenceServer;
  let target: HttpTarget;
  let targetUrl: string;
  beforeAll(async () => {
    server = await startReferenceServer();
    target = await startHttpTarget({ '/': { body: 'ok' } });
    targetUrl = `${target.url}/`;
  });
  afterAll(async () => {
    await server.close();
    await target.close();
  });

  it("follows a new enroll within seconds, keeps the old monitor's unsent results aside, and sends them after a reclaim", async () => {
    const { token, orgId } = withOrg(server);
    const dataDir = await tempDataDir();
    const status = (): Promise<StatusJson> => statusJson<StatusJson>(dataDir);
    const keyIn = async (): Promise<string> =>
      (JSON.parse(await readFile(join(dataDir, 'api-key'), 'utf8')) as { api_key: string }).api_key;
    const calledWith = (endpoint: 'ping' | 'results', key: string) =>
      server.requests({ endpoint }).filter((r) => r.headers.authorization === `Bearer ${key}` && r.status === 200);

    const first = await enrollDataDir(server, token, dataDir);
    const checkA = server.admin.createCheck({ name: 'A', url: `${targetUrl}?a`, interval_sec: 1, orgId });
    server.admin.assign(checkA.guid, first);
    const run = startRun(dataDir, ['--sync-interval', '0.2', '--upload-interval', '0.3', '--ping-interval', '0.2']);
    await eventually(() => server.results(first).length >= 1, 20_000, 'first monitor delivering');
    // The server stops taking results for a while: the first monitor's results pile up unsent.
    server.faults.respond(503, { endpoint: 'results', times: 1_000_000 });
    await eventually(async () => (await status()).unsent_results >= 3, 20_000, 'unsent results of the first monitor');

    // A new monitor enrolled from the command line, on the running agent's data folder.
    const second = await enrollDataDir(server, token, dataDir);
    expect(second).not.toBe(first);
    const checkB = server.admin.createCheck({ name: 'B', url: `${targetUrl}?b`, interval_sec: 1, orgId });
    server.admin.assign(checkB.guid, second);
    const secondKey = await keyIn();
    const switchedAt = Date.now();
    await eventually(() => calledWith('ping', secondKey).length > 0, 10_000, 'the running agent using the new key');
    const followedMs = Date.now() - switchedAt;
    const aside = await eventually(
      async () => {
        const s = await status();
        return s.monitor_id === second && s.aside_results.length === 1 ? s.aside_results[0] : undefined;
      },
      10_000,
      "the first monitor's results aside",
    );
    expect(aside.monitor_id).toBe(first);
    expect(aside.count).toBeGreaterThanOrEqual(3);

    server.faults.clear();
    await eventually(() => server.results(second).length >= 2, 20_000, 'second monitor delivering');
    // Nothing of the first monitor went out under the second key.
    expect(server.results(second).every((r) => r.checkGuid === checkB.guid)).toBe(true);
    expect(
      calledWith('results', secondKey)
        .map((r) => r.body)
        .join(''),
    ).not.toContain(checkA.guid);
    const asideNow = (await status()).aside_results[0]?.count ?? 0;
    expect(asideNow).toBeGreaterThanOrEqual(aside.count);

    // Reclaiming the first monitor sends its results.
    const deliveredBefore = server.results(first).length;
    server.admin.resetEnrollment(first);
    expect(await enrollDataDir(server, token, dataDir, '--reclaim', first)).toBe(first);
    await eventually(
      () => server.results(first).length >= deliveredBefore + asideNow,
      20_000,
      'the aside results delivered after the reclaim',
    );
    const after = await status();
    expect(after.monitor_id).toBe(first);
    expect(after.aside_results.map((a) => a.monitor_id)).not.toContain(first);
    const ran = await run.stop();
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain('the key file changed: now working as this monitor');
    console.log(
      `identity change figures: new key in use ${followedMs} ms after enroll; ${asideNow} results of ${first} kept aside, delivered after the reclaim`,
    );
  });
});
