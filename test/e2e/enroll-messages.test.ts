// Enrollment failures a person can act on, in Chromium: a wrong path under the server's address
// and an https address of a plain-http server each say what is wrong, at the server field (marked
// invalid, with the focus on it), without library text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, captureViews, launchBrowser, type Browser } from './support/browser.ts';
import { startDashboardAgent, type DashboardAgent } from './support/dashboard-agent.ts';
import { resources } from './support/resources.ts';
import { startScenario, type Scenario } from './support/scenario.ts';

const skip = browserSkipReason();

describe.skipIf(skip !== undefined)('enrollment messages in the web dashboard', { timeout: 120_000 }, () => {
  const open = resources();
  let scenario: Scenario;
  let agent: DashboardAgent;
  let browser: Browser;

  beforeAll(async () => {
    scenario = open.add(await startScenario(), (s) => s.close());
    agent = open.add(await startDashboardAgent(), (a) => a.stop());
    browser = open.add(await launchBrowser(), (b) => b.close());
  });
  afterAll(() => open.closeAll());

  async function enrollAt(server: string): Promise<void> {
    const { page } = browser;
    await page.getByLabel('Server URL').fill(server);
    await page.getByLabel('Enrollment token').fill(scenario.token);
    for (const [label, value] of [
      ['Monitor name', 'office-pc'],
      ['Region', 'eu-west'],
      ['Country', 'DE'],
      ['City', 'Berlin'],
    ] as const)
      await page.getByLabel(label).fill(value);
    await page.getByRole('button', { name: 'Enroll', exact: true }).click();
  }

  it('says a wrong path is not the API base, and an https address of a plain-http server speaks plain http', async () => {
    const { page } = browser;
    await page.goto(agent.url);
    await page.getByRole('heading', { level: 1, name: 'Enroll this agent' }).waitFor();

    await enrollAt(`${scenario.server.url}/not/the/api`);
    const wrongPath = page.getByRole('alert');
    await wrongPath.getByText('This address does not look like the uptime server’s API').waitFor();
    expect(await wrongPath.textContent()).toContain(`Tried ${scenario.server.url}/not/the/api,`);
    expect(await wrongPath.textContent()).not.toContain('/api/enroll');
    const server = page.getByLabel('Server URL');
    expect(await server.getAttribute('aria-invalid')).toBe('true');
    expect(await server.evaluate((el) => el === document.activeElement)).toBe(true);
    await captureViews(page, 'enroll-wrong-path');

    await enrollAt(scenario.server.url.replace(/^http:/, 'https:'));
    const plain = page.getByRole('alert');
    await plain.getByText(/This server speaks plain http/).waitFor({ timeout: 20_000 });
    expect(await plain.textContent()).not.toMatch(/SSL routines|ERR_SSL|EPROTO|--/);
    await captureViews(page, 'enroll-plain-http');
    expect(browser.problems).toEqual([]);
  });
});
