// The tray wired to a real agent (enrolled against the reference server): icon and tooltip follow
// its state, and every menu item reaches it.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent } from '../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../src-main/agent/identity/key-vault.ts';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { createEventHub, type EventHub } from '../../src-main/ipc/events.ts';
import { createHandlers, type HostActions } from '../../src-main/ipc/handlers.ts';
import type { EventPayloads } from '../../src-main/ipc/contract.ts';
import { createShellStore } from '../../src-main/electron/settings.ts';
import { setupTray, type TrayController } from '../../src-main/electron/tray.ts';
import { closedPort } from '../targets/index.ts';
import { enrolledAgent, eventually, type Harness } from '../support/agent-harness.ts';
import { FakeTray } from './fake-electron.ts';
import { resultsKeptSentences } from '../renderer/said-once.ts';
import { memoryBacking, tempDir } from './support.ts';

const host: HostActions = {
  info: () => ({
    version: 't',
    logsFolder: '/l',
    dataFolder: '/d',
    host: 'desktop',
    platform: 'linux',
    hostName: 'h',
    keyStorage: 'test',
  }),
  chooseFile: () => Promise.resolve(undefined),
  openLogsFolder: () => Promise.resolve(),
  openExternal: () => Promise.resolve(),
};

interface Rig {
  tray: FakeTray;
  controller: TrayController;
  hub: EventHub;
  shown: (EventPayloads['app:navigate'] | undefined)[];
  reports: string[];
  quits: number;
  loginSets: boolean[];
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function rig(agent: Agent): Rig {
  const hub = createEventHub(agent, { snapshotThrottleMs: 10, transitionWindowMs: 20 });
  const store = createShellStore(memoryBacking());
  const handle = createHandlers({ agent, settings: store, host, log: silentLogger });
  let tray: FakeTray | undefined;
  const r = { shown: [], reports: [], quits: 0, loginSets: [] } as unknown as Rig;
  r.controller = setupTray({
    createTray: (icon) => (tray = new FakeTray(icon)),
    iconPath: (state) => `/icons/${state}.png`,
    invoke: handle,
    snapshot: () => agent.snapshot(),
    hub,
    window: { show: (navigate) => r.shown.push(navigate) },
    launchAtLogin: {
      get: () => store.get().launchAtLogin,
      set: (enabled) => {
        r.loginSets.push(enabled);
        store.update({ launchAtLogin: enabled });
        return Promise.resolve();
      },
    },
    quit: () => r.quits++,
    report: (title, body) => r.reports.push(`${title}: ${body}`),
    log: silentLogger,
  });
  if (tray === undefined) throw new Error('setupTray created no tray');
  r.tray = tray;
  r.hub = hub;
  cleanups.push(() => {
    r.controller.destroy();
    hub.close();
  });
  return r;
}

async function enrolled(tunables = {}): Promise<Harness> {
  const h = await enrolledAgent({ tunables });
  cleanups.push(() => h.close());
  return h;
}

/** A check against a port nobody listens on: it fails at every run. */
async function addClosedCheck(h: Harness, name: string): Promise<string> {
  const check = h.assignCheck({ name, url: `http://127.0.0.1:${await closedPort()}/` });
  return check.guid;
}

describe('tray of an agent that is not enrolled', () => {
  it('shows the not-enrolled icon and only the actions that make sense', async () => {
    const dir = await tempDir();
    const agent = createAgent({ dataDir: dir.path, vault: fileKeyVault(dir.path) });
    cleanups.push(
      () => dir.remove(),
      () => agent.stop(),
    );
    await agent.start();
    const { tray } = rig(agent);
    expect(tray.image).toBe('/icons/not-enrolled.png');
    expect(tray.tooltip).toBe('Uptime Agent: not enrolled. Open it to enroll this computer.');
    expect(tray.item('Open Uptime Agent').enabled).not.toBe(false);
    for (const label of ['Pause checks', 'Sync now', 'Upload now']) expect(tray.item(label).enabled).toBe(false);
    expect(tray.menu.map((i) => i.label ?? i.type)).toEqual([
      'Not enrolled: open the app to enroll',
      'separator',
      'Open Uptime Agent',
      'Pause checks',
      'Sync now',
      'Upload now',
      'separator',
      'Launch at login',
      'separator',
      'Quit Uptime Agent',
    ]);
  });
});

describe('tray of an enrolled agent', () => {
  it('turns red with the down count when a check goes down, and lists it: choosing it opens its detail', async () => {
    const h = await enrolled();
    const r = rig(h.agent);
    const { tray } = r;
    expect(tray.image).toBe('/icons/ok.png');
    expect(tray.tooltip).toBe('0 checks · 0 unsent');
    const guid = await addClosedCheck(h, 'Intranet');
    await eventually(() => tray.image === '/icons/error.png', 10_000, 'the error icon');
    expect(tray.tooltip).toMatch(/^1 down · 1 check · \d+ unsent$/);
    expect(tray.item('1 of 1 check down').enabled).toBe(false);
    tray.clickItem('Intranet is down');
    expect(r.shown.at(-1)).toEqual({ view: 'checks', guid });
  });

  it('pauses and resumes the agent from the menu, and the icon follows', async () => {
    const h = await enrolled();
    const r = rig(h.agent);
    r.tray.clickItem('Pause checks');
    await eventually(() => h.agent.snapshot().paused, 5_000, 'the agent to pause');
    await eventually(() => r.tray.image === '/icons/paused.png', 5_000, 'the paused icon');
    expect(r.tray.tooltip).toMatch(/ · paused$/);
    r.tray.clickItem('Resume checks');
    await eventually(() => !h.agent.snapshot().paused, 5_000, 'the agent to resume');
    await eventually(() => r.tray.image === '/icons/ok.png', 5_000, 'the ok icon');
    expect(r.tray.item('Pause checks')).toBeDefined();
  });

  it('syncs and uploads now from the menu', async () => {
    // Loops far apart, so that what reaches the server came from the menu.
    const h = await enrolled({ syncIntervalMs: 3_600_000, uploadIntervalMs: 3_600_000 });
    h.assignCheck({
      name: 'Closed',
      url: `http://127.0.0.1:${await closedPort()}/`,
      interval_sec: 1,
    });
    const r = rig(h.agent);
    const syncs = h.server.requests({ endpoint: 'checks' }).length;
    r.tray.clickItem('Sync now');
    await eventually(() => h.server.requests({ endpoint: 'checks' }).length > syncs, 5_000, 'a sync request');
    await eventually(() => h.agent.snapshot().counts.total === 1, 5_000, 'the synced check');
    // Its first failure went at once (the check went down); failing again waits for the period.
    await eventually(() => h.server.results(h.monitorId).length > 0, 10_000, 'the check going down, uploaded');
    // A result the server does not have yet. Not just any row in the outbox: the first upload's
    // rows leave it only once its 200 is back, after the server already stored them.
    const onServer = (ranAt: string): boolean => h.server.results(h.monitorId).some((x) => x.ranAt === ranAt);
    const waiting = await eventually(
      () => h.store.outbox.peek(100, 1_000_000).find((row) => !onServer(row.ran_at)),
      10_000,
      'a result the server does not have',
    );
    r.tray.clickItem('Upload now');
    await eventually(() => onServer(waiting.ran_at), 5_000, 'that result on the server');
    expect(r.reports).toEqual([]);
  });

  it('says so when Sync now fails', async () => {
    const h = await enrolled({ syncIntervalMs: 3_600_000 });
    const r = rig(h.agent);
    await h.server.stop();
    r.tray.clickItem('Sync now');
    await eventually(() => r.reports.length > 0, 10_000, 'a report');
    expect(r.reports[0]).toMatch(/^Sync failed: Nothing answers at that address/);
    // Said from the failure's kind and cause, never the library's text nor the API path.
    expect(r.reports[0]).not.toMatch(/ECONNREFUSED|\/api\/|GET|POST/);
    // What follows is the sync's: it is tried again; a sync holds no results to keep.
    expect(r.reports[0]).toMatch(/tries again/);
    expect(resultsKeptSentences(r.reports[0] ?? '')).toEqual([]);
  });

  it('says so when Upload now fails, and that the results are kept', async () => {
    const h = await enrolled({ uploadIntervalMs: 3_600_000 });
    const r = rig(h.agent);
    h.agent.pause();
    const ranAt = new Date().toISOString();
    h.store.outbox.insert([
      { check_guid: 'g', monitor_id: h.monitorId, ran_at: ranAt, success: true, http_status: 200, latency_ms: 1 },
    ]);
    await h.server.stop();
    r.tray.clickItem('Upload now');
    await eventually(() => r.reports.length > 0, 10_000, 'a report');
    expect(r.reports[0]).toMatch(/^Upload failed: Nothing answers at that address/);
    // A failure with a cause said only what to check: the tray never said the results were kept.
    expect(resultsKeptSentences(r.reports[0] ?? '')).toHaveLength(1);
    expect(h.store.outbox.count()).toBe(1);
  });

  it('says the server is unreachable while it refuses connections (never the ok icon), and recovers by itself', async () => {
    // Quick loops, so that the agent calls the server (and finds it gone, then back) within seconds.
    const h = await enrolled({
      syncIntervalMs: 200,
      uploadIntervalMs: 200,
      statusIntervalMs: 200,
      pingIntervalMs: 200,
    });
    const r = rig(h.agent);
    await eventually(() => h.agent.snapshot().connection.state === 'connected', 5_000, 'a first call');
    await h.server.stop();
    await eventually(() => r.tray.image === '/icons/warning.png', 10_000, 'the warning icon');
    expect(h.agent.snapshot().connectivity.online).toBe(true);
    expect(r.tray.tooltip).toMatch(/ · server unreachable since \d{1,2}[:.]\d\d/);
    expect(r.tray.menu[0]?.label).toMatch(/^Server unreachable since .+: results are kept until it answers$/);
    await h.server.start();
    await eventually(() => r.tray.image === '/icons/ok.png', 10_000, 'the ok icon again');
    expect(r.tray.tooltip).not.toContain('unreachable');
  });

  it('toggles launch at login, opens the window and quits', async () => {
    const h = await enrolled();
    const r = rig(h.agent);
    expect(r.tray.item('Launch at login')).toMatchObject({ type: 'checkbox', checked: false });
    r.tray.clickItem('Launch at login');
    await eventually(() => r.tray.item('Launch at login').checked === true, 2_000, 'the checkbox to be checked');
    r.tray.clickItem('Launch at login');
    await eventually(() => r.tray.item('Launch at login').checked === false, 2_000, 'the checkbox to be cleared');
    expect(r.loginSets).toEqual([true, false]);

    r.tray.clickItem('Open Uptime Agent');
    r.tray.emit('click');
    expect(r.shown).toEqual([undefined, undefined]);
    r.tray.clickItem('Quit Uptime Agent');
    expect(r.quits).toBe(1);
  });

  it('sets the menu again only when something in it changed', async () => {
    const h = await enrolled();
    const r = rig(h.agent);
    const menus = r.tray.menus.length;
    r.hub.refresh();
    r.hub.refresh();
    expect(r.tray.menus.length).toBe(menus);
    r.controller.refresh();
    expect(r.tray.menus.length).toBe(menus + 1);
  });
});
