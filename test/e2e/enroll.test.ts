// Enrollment through the web dashboard of a real headless agent: every refusal said in words,
// then a real enrollment whose checks show up with results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, captureViews, launchBrowser, type Browser } from './support/browser.ts';
import { startDashboardAgent, type DashboardAgent } from './support/dashboard-agent.ts';
import { startScenario, type Scenario } from './support/scenario.ts';
import { resources } from './support/resources.ts';
import { openView } from './support/views.ts';

const skip = browserSkipReason();
if (skip !== undefined) console.warn(`skipping browser tests: ${skip}`);

describe.skipIf(skip !== undefined)('enrolling from the web dashboard', { timeout: 120_000 }, () => {
  const open = resources();
  let scenario: Scenario;
  let agent: DashboardAgent;
  let browser: Browser;

  beforeAll(async () => {
    scenario = open.add(await startScenario(), (s) => s.close());
    scenario.addCheck('Website', '/health');
    scenario.addCheck('Intranet', '/intranet');
    agent = open.add(await startDashboardAgent(), (a) => a.stop());
    browser = open.add(await launchBrowser(), (b) => b.close());
  });
  afterAll(() => open.closeAll());

  async function fillForm(fields: { token: string; reclaimId?: string }): Promise<void> {
    const { page } = browser;
    await page.getByLabel('Server URL').fill(scenario.server.url);
    await page.getByLabel('Enrollment token').fill(fields.token);
    await page.getByLabel('Monitor name').fill('office-pc');
    await page.getByLabel('Region').fill('eu-west');
    await page.getByLabel('Country').fill('DE');
    await page.getByLabel('City').fill('Berlin');
    if (fields.reclaimId !== undefined) {
      if (!(await page.getByLabel('Reclaim monitor id').isVisible()))
        await page.getByText('Advanced: reclaim a monitor id').click();
      await page.getByLabel('Reclaim monitor id').fill(fields.reclaimId);
    }
  }

  it('opens on the enrollment form and says why each refusal happened', async () => {
    const { page } = browser;
    await page.goto(agent.url);
    await page.getByRole('heading', { level: 1, name: 'Enroll this agent' }).waitFor();
    // The token left the address bar: it is not in the history or a screenshot.
    expect(page.url()).not.toContain('token=');
    expect(await page.getByLabel('Enrollment token').getAttribute('type')).toBe('password');
    await captureViews(page, 'enroll-empty');

    await fillForm({ token: 'uet_this-token-does-not-exist' });
    await page.getByRole('button', { name: 'Enroll', exact: true }).click();
    await page.getByRole('alert').getByText('The server refused the enrollment token').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Mint a new token');
    await captureViews(page, 'enroll-401');

    const taken = scenario.server.admin.enrollMonitor(scenario.orgId, { name: 'someone-else' });
    await fillForm({ token: scenario.token, reclaimId: taken.monitorId });
    await page.getByRole('button', { name: 'Reclaim monitor' }).click();
    await page.getByRole('alert').getByText('That monitor is still enrolled').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Monitors page');
    await captureViews(page, 'enroll-409');

    await fillForm({ token: scenario.token, reclaimId: '0000000000zz' });
    await page.getByRole('button', { name: 'Reclaim monitor' }).click();
    await page.getByRole('alert').getByText('No such monitor in this organisation').waitFor();
    await captureViews(page, 'enroll-404');

    // The 404 offers the way out: enroll as a new monitor, with everything already typed.
    await page.getByRole('button', { name: 'Enroll as a new monitor' }).click();
    await page.getByText(/Enrolled as monitor [0-9a-z]{12}/).waitFor();
    expect(await page.getByLabel('Reclaim monitor id').count()).toBe(0);
  });

  it('shows the checks with their results, live', async () => {
    const { page } = browser;
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByText('office-pc').waitFor();
    await openView(page, 'Checks');
    const website = page.getByRole('row', { name: /Website/ });
    await website.getByText('Up').waitFor({ timeout: 20_000 });
    await page
      .getByRole('row', { name: /Intranet/ })
      .getByText('Up')
      .waitFor({ timeout: 20_000 });
    // A few results so that the sparkline has something to draw.
    await page
      .getByRole('img', { name: /Latency of the last/ })
      .first()
      .waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Website' }).click();
    const detail = page.getByRole('complementary', { name: 'Website' });
    await detail
      .getByRole('list', { name: /Recent results of Website/ })
      .getByText(/ok · HTTP 200/)
      .first()
      .waitFor();
    await captureViews(page, 'checks-detail');

    // Sorting by a column header says so to assistive technology.
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    expect(await page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    await page.getByLabel('Filter').fill('intra');
    expect(await page.getByRole('row').count()).toBe(2); // header + Intranet

    await openView(page, 'Overview');
    await captureViews(page, 'overview');
    await openView(page, 'Settings');
    await page.getByText('The API key is not encrypted by the operating system').waitFor();
    await captureViews(page, 'settings');
    expect(browser.problems).toEqual([]);
  });
});
