// What a private-monitor owner watches for, in Chromium through the web dashboard of a real
// headless agent: a check going down then up (overview, title, pill, heartbeat, detail, events),
// a "Run now" test run, a reload that keeps the view, and an agent restart that the open tab
// survives (same address and token, printed again by `uptime-agent dashboard-url`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { startHttpTarget, type HttpTarget } from '../targets/index.ts';
import { browserSkipReason, captureViews, launchBrowser, type Browser } from './support/browser.ts';
import { startDashboardAgent, type DashboardAgent } from './support/dashboard-agent.ts';
import { resources } from './support/resources.ts';
import { enrolledDataDir, startScenario, type Scenario } from './support/scenario.ts';
import { openView } from './support/views.ts';

const skip = browserSkipReason();

describe.skipIf(skip !== undefined)('monitoring in the web dashboard', { timeout: 180_000 }, () => {
  const open = resources();
  let scenario: Scenario;
  let shop: HttpTarget;
  let status = 200;
  let agent: DashboardAgent;
  let browser: Browser;
  let dataDir: string;
  let shopGuid: string;

  beforeAll(async () => {
    scenario = open.add(await startScenario(), (s) => s.close());
    shop = open.add(
      await startHttpTarget({
        '/': (_req, res) =>
          res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'open' : 'busy'),
      }),
      (t) => t.close(),
    );
    shopGuid = scenario.server.admin.createCheck({
      name: 'Shop',
      url: `${shop.url}/`,
      interval_sec: 1,
      orgId: scenario.orgId,
    }).guid;
    scenario.addCheck('Website', '/health');
    dataDir = (await enrolledDataDir(scenario)).dataDir;
    agent = await startDashboardAgent({ dataDir });
    browser = open.add(await launchBrowser(), (b) => b.close());
  });
  afterAll(async () => {
    await agent.stop();
    await open.closeAll();
  });

  it('a check going down leads the overview, the title and the pill; its detail explains it; then it comes back', async () => {
    const { page } = browser;
    await page.goto(agent.url);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByText(/No problems: every check that runs is up/).waitFor({ timeout: 20_000 });
    expect(await page.title()).toBe('Online · Uptime Agent');

    status = 503;
    const down = page.getByRole('region', { name: '1 check is down' });
    await down.waitFor({ timeout: 20_000 });
    await down.getByText(/^down for \d+ s \(since .+\)$/).waitFor();
    await down.getByText(/Status 503/).waitFor();
    await page.waitForFunction(() => document.title === '1 down · Uptime Agent');
    await page.getByRole('status', { name: 'Agent status: 1 down' }).waitFor();
    expect(await page.getByText(/No problems/).count()).toBe(0);
    await captureViews(page, 'overview-down');

    // The name links to the check's detail, and the address says so.
    await down.getByRole('button', { name: 'Shop' }).click();
    const detail = page.getByRole('complementary', { name: 'Shop' });
    await detail.waitFor();
    expect(new URL(page.url()).hash).toBe(`#/checks/${shopGuid}`);
    await detail.getByText(/Down for \d+ s \(since .+\)$/).waitFor();
    const beats = detail.getByRole('group', {
      name: /^Shop: Last \d+ runs, oldest first: \d+ passed, [1-9]\d* failed/,
    });
    await beats.waitFor({ timeout: 20_000 });
    await beats.focus();
    await detail.getByText(/^Run \d+ of \d+: .* · failed · HTTP 503/).waitFor();
    await beats.press('ArrowLeft');
    const day = detail.getByRole('group', { name: 'Window of the chart' }).getByRole('button', { name: '24 h' });
    await day.click();
    await detail.locator('.latency-plot canvas').first().waitFor();
    await detail.getByText(/^Latency over the last 24 hours: typically \d+ ms/).waitFor();
    await detail
      .getByRole('list', { name: 'Events of Shop, newest first' })
      .getByText(/^Shop down for/)
      .waitFor();
    await captureViews(page, 'check-detail-down');

    // Run now: a test run, explained, not uploaded.
    await detail.getByRole('button', { name: 'Run now' }).click();
    const test = detail.getByRole('region', { name: 'Test run' });
    await test.waitFor({ timeout: 20_000 });
    await test.getByText(/^Failed · HTTP 503 · \d+ ms/).waitFor();
    await test.getByText(/test run, not uploaded/).waitFor();
    await test.getByRole('term').filter({ hasText: 'Total' }).waitFor();
    await captureViews(page, 'check-run-now');

    status = 200;
    await page.waitForFunction(() => document.title === 'Online · Uptime Agent', undefined, { timeout: 20_000 });
    await openView(page, 'Events');
    await page.getByText(/^Shop down .+ → up .+, down for \d+ s$/).waitFor();
    await captureViews(page, 'events');
    expect(browser.problems).toEqual([]);
  });

  it('a reload keeps the view, the selected check and the access', async () => {
    const { page } = browser;
    await page.goto(`${new URL(agent.url).origin}/#/checks/${shopGuid}`);
    await page.getByRole('complementary', { name: 'Shop' }).waitFor();
    await page.reload();
    await page.getByRole('complementary', { name: 'Shop' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('complementary', { name: 'Shop' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe('#/checks');
    // With the pane closed the table has room for each row's heartbeat.
    await page
      .getByRole('row', { name: /Shop/ })
      .getByRole('group', { name: /^Shop: Last \d+ runs/ })
      .waitFor();
    await captureViews(page, 'checks-heartbeats');
    await page.goBack();
    await page.getByRole('complementary', { name: 'Shop' }).waitFor();
    expect(browser.problems).toEqual([]);
  });

  it('a restarted agent is picked up by the open tab; dashboard-url prints its address', async () => {
    const { page } = browser;
    await openView(page, 'Overview');
    const before = agent.url;
    await agent.stop();
    await page.getByText(/^Disconnected from the agent since/).waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.title === 'Disconnected · Uptime Agent');
    await page.getByRole('status', { name: 'Agent status: Disconnected' }).waitFor();
    await captureViews(page, 'disconnected');

    agent = await startDashboardAgent({ dataDir });
    expect(agent.url).toBe(before);
    await page.getByText(/^Disconnected from the agent/).waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('status', { name: /^Agent status: / }).waitFor();
    const printed = await runCli(['dashboard-url', '--data-dir', dataDir]);
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(before);
    // Reconnecting logs failed fetches while the agent was down; nothing else went wrong.
    expect(browser.problems.filter((p) => !/Failed to load resource|ERR_CONNECTION_REFUSED/.test(p))).toEqual([]);
  });
});
