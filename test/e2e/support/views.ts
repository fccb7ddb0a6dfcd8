// Moving around the window the way a user does: by the labelled view list.
import type { Page } from 'playwright-core';

export type ViewLabel =
  'Overview' | 'Checks' | 'Events' | 'Unsent results' | 'Outages' | 'Private definitions' | 'Settings';

export async function openView(page: Page, label: ViewLabel): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: new RegExp(`^${label}`) })
    .click();
  await page.getByRole('heading', { level: 1, name: label }).waitFor();
}
