// Issue 25 "Done when": a real reference server refusing connections for 40 s. During it,
// `status --json` (another process) says connection.state `unreachable`, the title, the pill and
// the landing view (Overview) say the server cannot be reached (never "Online": this machine's
// network is fine), and Outages and Events show it as happening; within 15 s of the server's
// return the state is `connected`, the title says Online and no text on the Overview still says
// otherwise; Events and Outages each gained one entry about the absence, ended, in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, captureViews, launchBrowser, type Browser } from './support/browser.ts';
import { startDashboardAgent, type DashboardAgent } from './support/dashboard-agent.ts';
import { enrolledDataDir, startScenario, type Scenario } from './support/scenario.ts';
import { resources } from './support/resources.ts';
import { openView } from './support/views.ts';
import { runCli } from '../support/cli.ts';

const skip = browserSkipReason();
const refusalMs = 40_000;
const backWithinMs = 15_000;

interface Status {
  connection: { state: string } | null;
  server_absences: { started_at: string; ended_at: string | null }[];
}

async function status(dataDir: string): Promise<Status> {
  const result = await runCli(['status', '--json', '--data-dir', dataDir]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Status;
}

/** Polls `status --json` until it satisfies check, or fails at the deadline (epoch ms). */
async function statusUntil(dataDir: string, check: (s: Status) => boolean, deadline: number, what: string) {
  for (;;) {
    const s = await status(dataDir);
    if (check(s)) return s;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s.connection)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(skip !== undefined)('the server refusing connections for 40 s', { timeout: 180_000 }, () => {
  const open = resources();
  let scenario: Scenario;
  let agent: DashboardAgent;
  let browser: Browser;

  beforeAll(async () => {
    scenario = open.add(await startScenario(), (s) => s.close());
    scenario.addCheck('Intranet', '/intranet');
    const enrolled = await enrolledDataDir(scenario);
    agent = open.add(await startDashboardAgent({ dataDir: enrolled.dataDir }), (a) => a.stop());
    browser = open.add(await launchBrowser(), (b) => b.close());
  });
  afterAll(() => open.closeAll());

  it('is unreachable while it refuses, connected within 15 s of its return, and leaves one entry in Events and Outages', async () => {
    const { page } = browser;
    await page.goto(agent.url);
    await statusUntil(agent.dataDir, (s) => s.connection?.state === 'connected', Date.now() + 20_000, 'connected');
    await openView(page, 'Outages');
    await page.getByText('No outages recorded').waitFor({ timeout: 20_000 });

    await scenario.server.stop();
    const stoppedAt = Date.now();
    const during = await statusUntil(
      agent.dataDir,
      (s) => s.connection?.state === 'unreachable',
      stoppedAt + refusalMs,
      'unreachable while the server refuses',
    );
    expect(during.server_absences[0]?.ended_at).toBeNull();
    await openView(page, 'Overview');
    await page.waitForFunction(() => document.title.startsWith('Server unreachable since '), undefined, {
      timeout: 20_000,
    });
    expect(await page.getByRole('status', { name: /^Agent status: Server unreachable since / }).count()).toBe(1);
    const card = page.getByRole('article', { name: 'Connection' });
    await card.getByText(/^Cannot be reached since /).waitFor();
    expect(await card.textContent()).toContain('This machine’s network');
    await page.getByText(/^The server cannot be reached since /).waitFor();
    await captureViews(page, 'server-absence-overview-ongoing');
    await openView(page, 'Outages');
    const absence = page.getByRole('row', { name: /Server unreachable/ });
    await absence.getByText('ongoing').waitFor({ timeout: 20_000 });
    expect(await page.getByText('No outages recorded').count()).toBe(0);
    await captureViews(page, 'server-absence-outages-ongoing');
    await openView(page, 'Events');
    await page
      .getByRole('listitem')
      .filter({ hasText: /^The server cannot be reached/ })
      .waitFor({ timeout: 20_000 });
    await captureViews(page, 'server-absence-events-ongoing');
    // Still unreachable at the end of the 40 s, whatever the loops' backoff did meanwhile.
    await new Promise((r) => setTimeout(r, Math.max(0, stoppedAt + refusalMs - Date.now())));
    expect((await status(agent.dataDir)).connection?.state).toBe('unreachable');

    await scenario.server.start();
    const backAt = Date.now();
    const after = await statusUntil(
      agent.dataDir,
      (s) => s.connection?.state === 'connected',
      backAt + backWithinMs,
      'connected within 15 s of the server’s return',
    );
    expect(after.server_absences).toHaveLength(1);
    expect(after.server_absences[0]?.ended_at).not.toBeNull();
    await openView(page, 'Overview');
    await page.waitForFunction(() => document.title === 'Online · Uptime Agent', undefined, {
      timeout: Math.max(1_000, backAt + backWithinMs - Date.now()),
    });
    await page.getByRole('article', { name: 'Connection' }).getByText('Connected').waitFor();
    expect((await page.getByRole('main').textContent()) ?? '').not.toMatch(
      /cannot be reached|not answering|failing|refused/i,
    );
    await captureViews(page, 'server-absence-overview-back');
    await openView(page, 'Events');

    const events = page.getByRole('list', { name: 'Events, newest first' }).getByRole('listitem');
    const ended = events.filter({ hasText: /^Server unreachable .+–.+\(/ });
    await ended.waitFor({ timeout: 20_000 });
    expect(await events.filter({ hasText: /server/i }).count()).toBe(1);
    expect(await ended.textContent()).not.toMatch(/\d{4}-\d\d-\d\dT|https?:\/\/|ECONN/);
    await captureViews(page, 'server-absence-events-ended');

    await openView(page, 'Outages');
    const row = page.getByRole('row', { name: /Server unreachable/ });
    // The row first: before the view has its data there is no row, and so no "ongoing" either.
    await row.waitFor({ timeout: 20_000 });
    await row.getByText('ongoing').waitFor({ state: 'detached', timeout: 20_000 });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toMatch(/it refused connections|closed before it answered/);
    await captureViews(page, 'server-absence-outages-ended');
    expect(browser.problems).toEqual([]);
  });
});
