import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
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
    { name: 'not JSON', text: '{ nope', says: 'not complete JSON' },
    { name: 'a wrong type', text: '{ "notifications": "yes" }', says: 'notifications' },
  ])('falls back to the defaults, with a warning, when the file is $name', async ({ text, says }) => {
    const dir = await tempDataDir();
    await mkdir(dir, { recursive: true });
    await writeFile(settingsFile(dir), text);
    const warnings: string[] = [];
    expect(readSettingsFile(dir, (w) => warnings.push(w)).notifications).toBe(true);
    expect(warnings.join()).toContain(says);
  });

  const closedCases = [
    {
      name: 'one unrelated field of the wrong type keeps the strict policy',
      text: '{ "egressPolicy": "strict", "notifications": "yes", "serverUrl": "https://uptime.example" }',
      policy: 'strict',
      says: 'notifications',
    },
    { name: 'a truncated file is strict', text: '{ "egressPolicy": "open", "notifi', policy: 'strict', says: 'strict' },
    {
      name: 'an unreadable policy is strict',
      text: '{ "egressPolicy": "strct" }',
      policy: 'strict',
      says: 'egressPolicy',
    },
    { name: 'a file that holds no object is strict', text: '[1, 2]', policy: 'strict', says: 'strict' },
    { name: 'a missing policy stays open', text: '{ "notifications": false }', policy: 'open', says: undefined },
  ] as const;
  it.each(closedCases)('fails closed: $name', async ({ text, policy, says }) => {
    const dir = await tempDataDir();
    await writeFile(settingsFile(dir), text);
    const store = fileSettingsStore(dir);
    expect(store.get().egressPolicy).toBe(policy);
    if (says === undefined) expect(store.problem?.()).toBeUndefined();
    else expect(store.problem?.()).toContain(says);
  });

  it('keeps the other fields of a damaged file, and the problem until the policy is saved', async () => {
    const dir = await tempDataDir();
    await writeFile(
      settingsFile(dir),
      '{ "egressPolicy": 7, "serverUrl": "https://uptime.example", "checksUseProxy": "yes" }',
    );
    const store = fileSettingsStore(dir);
    expect(store.get()).toMatchObject({
      egressPolicy: 'strict',
      serverUrl: 'https://uptime.example',
      checksUseProxy: false,
    });
    store.update({ notifications: false });
    expect(store.problem?.()).toContain('strict egress policy');
    store.update({ egressPolicy: 'open' });
    expect(store.problem?.()).toBeUndefined();
    expect(readSettingsFile(dir).egressPolicy).toBe('open');
  });

  it('a device in its place (/dev/zero) is unreadable: strict, and no endless read', async () => {
    const dir = await tempDataDir();
    await symlink('/dev/zero', settingsFile(dir));
    const store = fileSettingsStore(dir);
    expect(store.get().egressPolicy).toBe('strict');
    expect(store.problem?.()).toContain('not a regular file');
  });
});
