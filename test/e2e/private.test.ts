// A private check: missing (not run) until the definitions file is chosen by typing its path,
// then matched and running, its definition masked until revealed.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettingsFile } from '../../src-main/cli/dashboard/settings-file.ts';
import { browserSkipReason, captureViews, launchBrowser, type Browser } from './support/browser.ts';
import { startDashboardAgent, type DashboardAgent } from './support/dashboard-agent.ts';
import { enrolledDataDir, startScenario, type Scenario } from './support/scenario.ts';
import { resources } from './support/resources.ts';
import { openView } from './support/views.ts';

const skip = browserSkipReason();

describe.skipIf(skip !== undefined)('private definitions in the web dashboard', { timeout: 120_000 }, () => {
  const open = resources();
  let scenario: Scenario;
  let agent: DashboardAgent;
  let browser: Browser;
  let guid: string;
  let file: string;

  beforeAll(async () => {
    scenario = open.add(await startScenario(), (s) => s.close());
    scenario.addCheck('Website', '/health');
    guid = scenario.addCheck('Payroll (private)', '/intranet');
    scenario.server.admin.makePrivateDefinition(guid);
    const enrolled = await enrolledDataDir(scenario);
    file = join(enrolled.dataDir, 'private-checks.json');
    const secret = 'Bearer e2e-secret-value';
    await writeFile(
      file,
      JSON.stringify({
        checks: [
          {
            guid,
            url: `${scenario.target.url}/intranet`,
            match_string: 'intranet ok',
            headers: { Authorization: secret },
          },
        ],
      }),
    );
    agent = open.add(await startDashboardAgent({ dataDir: enrolled.dataDir }), (a) => a.stop());
    browser = open.add(await launchBrowser(), (b) => b.close());
  });
  afterAll(() => open.closeAll());

  it('shows the check missing, then matched once the file is chosen, masked until revealed', async () => {
    const { page } = browser;
    await page.goto(agent.url);
    await page.getByRole('button', { name: 'Choose a definitions file' }).click(); // the Overview problem's action
    await page.getByRole('heading', { level: 1, name: 'Private definitions' }).waitFor();
    const missing = page.getByRole('region', { name: /without a local definition/ });
    await missing.getByText('Payroll (private)').waitFor({ timeout: 20_000 });
    await captureViews(page, 'private-missing');

    await page.getByLabel('Path of the definitions file').fill(file);
    await page.getByRole('button', { name: 'Use this file' }).click();
    const matched = page.getByRole('region', { name: /Defined in the file and running/ });
    await matched.getByText('Payroll (private)').waitFor();
    await missing.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain('e2e-secret-value');

    await matched.getByRole('button', { name: 'Reveal the definition of Payroll (private)' }).click();
    await matched.getByText('Bearer e2e-secret-value', { exact: false }).waitFor();
    await captureViews(page, 'private-revealed');
    await matched.getByRole('button', { name: 'Hide the definition of Payroll (private)' }).click();
    expect(await page.content()).not.toContain('e2e-secret-value');

    // The choice is kept for the next start, and the check now runs.
    expect(readSettingsFile(agent.dataDir).privateChecksFile).toBe(file);
    await openView(page, 'Checks');
    await page
      .getByRole('row', { name: /Payroll/ })
      .getByText('Up')
      .waitFor({ timeout: 20_000 });
    await expect(page.getByRole('row', { name: /Payroll/ }).textContent()).resolves.toContain('private');
    await captureViews(page, 'checks-with-private');
    expect(browser.problems).toEqual([]);
  });
});
