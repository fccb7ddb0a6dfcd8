// What every browser test starts from: a reference server with an organisation, a loopback
// target that is always up, and a helper to enroll an agent's data folder from the command line
// (the browser test of enrollment itself goes through the page).
import { startReferenceServer, type ReferenceServer } from '../../reference-server/index.ts';
import { lastLine, runCli, tempDataDir } from '../../support/cli.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';

export interface Scenario {
  server: ReferenceServer;
  orgId: string;
  token: string;
  target: HttpTarget;
  /** Adds a check (every 1 s) against the target; the organisation gives it to every monitor. */
  addCheck(name: string, path: string): string;
  close(): Promise<void>;
}

export async function startScenario(): Promise<Scenario> {
  const server = await startReferenceServer();
  // Auto-assign: every monitor that enrolls gets every check, as on the server's demo org.
  const orgId = server.admin.createOrganization('E2E organisation', { autoAssign: true }).id;
  const token = server.admin.mintOrgToken(orgId, { label: 'e2e' }).token;
  const target = await startHttpTarget({ '/health': { body: 'all good' }, '/intranet': { body: 'intranet ok' } });
  return {
    server,
    orgId,
    token,
    target,
    addCheck(name, path) {
      return server.admin.createCheck({ name, url: `${target.url}${path}`, interval_sec: 1, orgId }).guid;
    },
    async close() {
      await server.close();
      await target.close();
    },
  };
}

/** Enrolls a fresh data folder with `uptime-agent enroll`; returns the folder and monitor id. */
export async function enrolledDataDir(scenario: Scenario): Promise<{ dataDir: string; monitorId: string }> {
  const dataDir = await tempDataDir();
  const result = await runCli([
    'enroll',
    '--data-dir',
    dataDir,
    '--server',
    scenario.server.url,
    '--token',
    scenario.token,
    '--name',
    'e2e-pc',
    '--region',
    'eu-west',
    '--country',
    'DE',
    '--city',
    'Berlin',
  ]);
  if (result.code !== 0) throw new Error(`enroll failed (${result.code}): ${result.stderr}`);
  return { dataDir, monitorId: lastLine(result.stdout) };
}
