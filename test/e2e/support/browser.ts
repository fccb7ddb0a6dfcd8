// Real Chromium (Debian's package) driven by playwright-core: never a downloaded browser. Each
// launch gets a fresh profile folder, so no state leaks between tests.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Why the browser tests cannot run here, or undefined when they can. In CI a missing browser is
 * a failure (the CI script installs it), never a silent skip.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(chromiumPath)) return undefined;
  if (process.env.CI === 'true')
    throw new Error(`${chromiumPath} is missing in CI: the browser tests cannot run (apt-get install -y chromium)`);
  return `${chromiumPath} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser tests`;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Script errors, console errors and CSP violations seen so far: a clean page has none. */
  problems: string[];
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'uptime-agent-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return {
    context,
    page,
    problems,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export const screenshotDir = resolve(import.meta.dirname, '../../../test-artifacts/screenshots');

const layouts = [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 480, height: 800 },
] as const;
const schemes = ['light', 'dark'] as const;

/** The page as it is now, wide and narrow, light and dark: <name>-<layout>-<scheme>.png. */
export async function captureViews(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.mouse.move(0, 0); // no hover effect left over from the last click
  for (const layout of layouts) {
    await page.setViewportSize({ width: layout.width, height: layout.height });
    for (const colorScheme of schemes) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.screenshot({
        path: join(screenshotDir, `${name}-${layout.name}-${colorScheme}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}
