// Issue 25 "Done when", in Chromium through the web dashboard of a real headless agent: while
// the reference server refuses connections (this machine's network is fine), `status --json`,
// the title, the pill and the Overview say the server cannot be reached, never "Online"; when it
// is back, the connection is 'connected' again within 15 s and no text still says otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { browserSkipReason, launchBrowser, type Browser } from './support/browser.ts';
import { startDashboardAgent, type DashboardAgent } from './support/dashboard-agent.ts';
import { resources } from './support/resources.ts';
import { enrolledDataDir, startScenario, type Scenario } from './support/scenario.ts';

const skip = browserSkipReason();

async function connectionState(dataDir: string): Promise<string | undefined> {
  const printed = await runCli(['status', '--json', '--data-dir', dataDir]);
  return (JSON.parse(printed.stdout) as { connection?: { state?: string } }).connection?.state;
}

describe.skipIf(skip !== undefined)('the server away, in the web dashboard', { timeout: 180_000 }, () => {
  const open = resources();
  let scenario: Scenario;
  let agent: DashboardAgent;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    scenario = open.add(await startScenario(), (s) => s.close());
    scenario.addCheck('Website', '/health');
    dataDir = (await enrolledDataDir(scenario)).dataDir;
    agent = await startDashboardAgent({ dataDir });
    browser = open.add(await launchBrowser(), (b) => b.close());
  });
  afterAll(async () => {
    await agent.stop();
    await open.closeAll();
  });

  it('says the server cannot be reached while it refuses connections, and nothing of it once it is back', async () => {
    const { page } = browser;
    await page.goto(agent.url);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.waitForFunction(() => document.title === 'Online · Uptime Agent', undefined, { timeout: 20_000 });

    await scenario.server.stop();
    await page.waitForFunction(() => document.title.startsWith('Server unreachable since '), undefined, {
      timeout: 20_000,
    });
    expect(await page.getByRole('status', { name: /^Agent status: Server unreachable since / }).count()).toBe(1);
    const card = page.getByRole('article', { name: 'Connection' });
    await card.getByText(/^Cannot be reached since /).waitFor();
    expect(await card.textContent()).toContain('This machine’s network');
    await page.getByText(/^The server cannot be reached since /).waitFor();
    expect(await connectionState(dataDir)).toBe('unreachable');

    await scenario.server.start();
    // Within 15 s of its return (the bound), or the wait fails.
    await page.waitForFunction(() => document.title === 'Online · Uptime Agent', undefined, { timeout: 15_000 });
    await card.getByText('Connected').waitFor();
    expect(await connectionState(dataDir)).toBe('connected');
    const main = (await page.getByRole('main').textContent()) ?? '';
    expect(main).not.toMatch(/cannot be reached|not answering|failing|refused/i);
  });
});
