// A server that does not answer at all makes this machine "offline" (its only connectivity
// target is silent, and no check answers either; a refusal would be an answer): the Outages view shows the outage while it
// lasts and keeps it, ended, when the server is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, captureViews, launchBrowser, type Browser } from './support/browser.ts';
import { startDashboardAgent, type DashboardAgent } from './support/dashboard-agent.ts';
import { enrolledDataDir, startScenario, type Scenario } from './support/scenario.ts';
import { resources } from './support/resources.ts';
import { openView } from './support/views.ts';
import { startSilentPort } from '../targets/index.ts';

const skip = browserSkipReason();

describe.skipIf(skip !== undefined)('outages in the web dashboard', { timeout: 120_000 }, () => {
  const open = resources();
  let scenario: Scenario;
  let agent: DashboardAgent;
  let browser: Browser;

  beforeAll(async () => {
    // No check: a check whose target still answers is proof the network works (design.md
    // "Connectivity (revised)"), and would rightly keep this machine online.
    scenario = open.add(await startScenario(), (s) => s.close());
    const enrolled = await enrolledDataDir(scenario);
    agent = open.add(await startDashboardAgent({ dataDir: enrolled.dataDir }), (a) => a.stop());
    browser = open.add(await launchBrowser(), (b) => b.close());
  });
  afterAll(() => open.closeAll());

  it('shows the current outage, then its end', async () => {
    const { page } = browser;
    await page.goto(agent.url);
    await openView(page, 'Outages');
    await page.getByText('No outages recorded').waitFor({ timeout: 20_000 });
    await captureViews(page, 'outages-empty');

    await scenario.server.stop();
    const silent = await startSilentPort(scenario.server.port);
    await page.getByText('Offline now').waitFor({ timeout: 30_000 });
    // A silent server is also a server absence: each has its row, of its own kind.
    const offline = page.getByRole('row', { name: /^This machine was offline/ });
    await offline.getByText('ongoing').waitFor();
    await page.getByRole('banner').getByText('Offline').waitFor();
    await captureViews(page, 'outages-offline');

    await silent.close();
    await scenario.server.start();
    await page.getByText('Offline now').waitFor({ state: 'detached', timeout: 30_000 });
    await page
      .getByRole('row', { name: /ongoing/ })
      .first()
      .waitFor({ state: 'detached' });
    // Its length depends on how long the screenshots above took: a blip under a second is said so.
    await offline.getByRole('cell', { name: /^(\d+ s|under a second)$/ }).waitFor();
    await captureViews(page, 'outages-ended');
    expect(browser.problems).toEqual([]);
  });
});
