// Results pile up while the server refuses uploads (503), and drain when it takes them again,
// as seen in the Unsent results view of a real agent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/agent-harness.ts';
import { browserSkipReason, captureViews, launchBrowser, type Browser } from './support/browser.ts';
import { startDashboardAgent, type DashboardAgent } from './support/dashboard-agent.ts';
import { enrolledDataDir, startScenario, type Scenario } from './support/scenario.ts';
import { resources } from './support/resources.ts';
import { openView } from './support/views.ts';

const skip = browserSkipReason();

describe.skipIf(skip !== undefined)('unsent results in the web dashboard', { timeout: 120_000 }, () => {
  const open = resources();
  let scenario: Scenario;
  let agent: DashboardAgent;
  let browser: Browser;
  let monitorId: string;

  beforeAll(async () => {
    scenario = open.add(await startScenario(), (s) => s.close());
    scenario.addCheck('Website', '/health');
    scenario.addCheck('Intranet', '/intranet');
    scenario.addCheck('Missing page', '/nope');
    const enrolled = await enrolledDataDir(scenario);
    monitorId = enrolled.monitorId;
    agent = open.add(await startDashboardAgent({ dataDir: enrolled.dataDir }), (a) => a.stop());
    browser = open.add(await launchBrowser(), (b) => b.close());
  });
  afterAll(() => open.closeAll());

  const unsentShown = async (): Promise<number> =>
    Number((await browser.page.getByTestId('unsent-count').textContent())?.replace(/\D/g, '') ?? 'NaN');

  it('shows results waiting while uploads fail, then drains them with Upload now', async () => {
    const { page } = browser;
    await page.goto(agent.url);
    await openView(page, 'Unsent results');
    await page.getByText('Nothing is waiting').waitFor({ timeout: 20_000 });
    await captureViews(page, 'unsent-empty');

    const fault = scenario.server.faults.respond(503, { endpoint: 'results', forMs: 60_000 });
    await eventually(async () => (await unsentShown()) >= 8, 30_000, 'at least 8 unsent results on the page');
    await page.getByText(/Sending has failed \d+ times? in a row/).waitFor();
    await page.getByRole('rowheader', { name: 'Missing page' }).waitFor();
    await captureViews(page, 'unsent-failing');

    // The server is back, but slow: the drain shows its progress while it runs.
    fault.cancel();
    scenario.server.faults.delay(2_500, { endpoint: 'results', times: 1 });
    const before = scenario.server.results(monitorId).length;
    await page.getByRole('button', { name: 'Upload now' }).click();
    await page.getByRole('progressbar').waitFor();
    // The bar and the count beside it say one thing: sent so far plus what waits (read together).
    const shown = await page.evaluate(() => ({
      label: document.querySelector('label[for="upload-progress"]')?.textContent ?? '',
      waiting: document.querySelector('[data-testid="unsent-count"]')?.textContent ?? '',
    }));
    const [, sent, of] = /(\d+) of (\d+)/.exec(shown.label.replace(/[,\s](?=\d{3})/g, '')) ?? [];
    expect(Number(of)).toBe(Number(sent) + Number(shown.waiting.replace(/\D/g, '')));
    await captureViews(page, 'unsent-draining');
    await eventually(async () => (await unsentShown()) < 5, 30_000, 'the backlog to drain');
    expect(scenario.server.results(monitorId).length).toBeGreaterThan(before + 5);
    await page.getByText('Sending has failed').waitFor({ state: 'detached', timeout: 20_000 });
    expect(browser.problems).toEqual([]);
  });
});
