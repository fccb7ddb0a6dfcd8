import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSettingsStore, readSettingsFile, settingsFile } from '../../../src-main/cli/dashboard/settings-file.ts';
import { tempDataDir } from '../../support/cli.ts';

describe('settings.json of a headless host', () => {
  it('starts from the defaults when there is no file', async () => {
    const store = fileSettingsStore(await tempDataDir());
    expect(store.get()).toMatchObject({ serverUrl: '', notifications: true, intervals: {}, connectivityTargets: [] });
  });

  it('writes changes whole, readable only by the user, and reads them back', async () => {
    const dir = join(await tempDataDir(), 'nested');
    const store = fileSettingsStore(dir);
    store.update({ serverUrl: ' https://uptime.example ', intervals: { syncSec: 5 }, privateChecksFile: '/x.json' });
    const again = readSettingsFile(dir);
    expect(again).toMatchObject({
      serverUrl: 'https://uptime.example',
      intervals: { syncSec: 5 },
      privateChecksFile: '/x.json',
    });
    expect((await stat(settingsFile(dir))).mode & 0o777).toBe(0o600);
    // The settings may be the first thing written to a new data folder (a proxy flag on the
    // first run, the demo's pre-filled form): the folder is private from the start.
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    store.update({ privateChecksFile: undefined });
    expect(JSON.parse(await readFile(settingsFile(dir), 'utf8'))).not.toHaveProperty('privateChecksFile');
  });

  it.each([
    { name: 'not JSON', text: '{ nope', says: 'not valid JSON' },
    { name: 'a wrong type', text: '{ "notifications": "yes" }', says: 'notifications' },
  ])('falls back to the defaults, with a warning, when the file is $name', async ({ text, says }) => {
    const dir = await tempDataDir();
    await mkdir(dir, { recursive: true });
    await writeFile(settingsFile(dir), text);
    const warnings: string[] = [];
    expect(readSettingsFile(dir, (w) => warnings.push(w)).notifications).toBe(true);
    expect(warnings.join()).toContain(says);
  });
});
